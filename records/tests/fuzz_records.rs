//! Fuzzing the parquet readers: a real shard's files with bytes flipped, cut short, or with
//! bytes inserted, and files of arbitrary bytes, never make `read_games`, `read_positions` or
//! `read_shard` panic or hang: they return the records or an error naming the file.
//!
//! Cases: `FUZZ_CASES` (default 1000 per property; CI runs the default). For a longer run:
//! `FUZZ_CASES=100000 PROPTEST_RNG_SEED=$RANDOM cargo test --release -p records --test fuzz_records`.

use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use games::Termination;
use proptest::prelude::*;
use records::{GameRecord, PositionRow, Shard, read_games, read_positions, read_shard};

#[path = "../../tests/common/fuzz.rs"]
mod fuzz;

/// This test file's folder ([`fuzz::scratch`]).
fn dir() -> &'static Path {
    fuzz::scratch("fuzz-records")
}

/// The bytes of a real shard's games and positions files.
fn shard_bytes() -> &'static (Vec<u8>, Vec<u8>) {
    static BYTES: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
    BYTES.get_or_init(|| {
        let game = |id, variant: &str, moves: &[&str], result: Vec<f32>| GameRecord {
            run: "fuzz".into(),
            generation: 0,
            game_id: id,
            variant: variant.into(),
            seed: id * 7,
            start_position: "start".into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            plies: moves.len() as u32,
            result,
            termination: Termination::Castle,
            model: "gen-0000".into(),
        };
        let third = 1.0 / 3.0;
        let games = vec![
            game(1, "camelot", &["C6-B5", "J11-J10"], vec![1.0, 0.0]),
            game(2, "tricamelot", &["F16-G16"], vec![third, third, third]),
        ];
        let position = |game_id, ply, seats: usize| PositionRow {
            game_id,
            ply,
            move_number: ply,
            position: format!("position {ply}"),
            mover: 0,
            policy_actions: vec![3, 9, 27],
            policy_target: vec![0.5, 0.25, 0.25],
            root_values: vec![0.5; seats],
            net_values: vec![0.4; seats],
            result: vec![1.0 / seats as f32; seats],
            full_search: ply % 2 == 0,
        };
        let positions = vec![position(1, 0, 2), position(1, 1, 2), position(2, 0, 3)];
        let shard = Shard { games, positions };
        let out = dir().join("original");
        let paths = records::write_shard(&out, 0, "fuzz", 0, &shard).unwrap();
        assert_eq!(read_shard(&paths.games).unwrap(), shard);
        (std::fs::read(&paths.games).unwrap(), std::fs::read(&paths.positions).unwrap())
    })
}

/// How a file is damaged.
#[derive(Clone, Debug)]
enum Damage {
    Flip(Vec<(usize, u8)>),
    Cut(usize),
    Insert(usize, Vec<u8>),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        prop::collection::vec((any::<usize>(), 1u8..=255), 1..8).prop_map(Damage::Flip),
        any::<usize>().prop_map(Damage::Cut),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..16))
            .prop_map(|(at, b)| Damage::Insert(at, b)),
    ]
}

fn apply(bytes: &[u8], damage: &Damage) -> Vec<u8> {
    let mut out = bytes.to_vec();
    match damage {
        Damage::Flip(flips) => {
            for &(at, x) in flips {
                let i = at % out.len();
                out[i] ^= x;
            }
        }
        Damage::Cut(at) => out.truncate(at % out.len()),
        Damage::Insert(at, b) => {
            let i = at % out.len();
            out.splice(i..i, b.iter().copied());
        }
    }
    out
}

/// Writes the two files as shard 0 of a fresh folder and reads them every way.
fn read_every_way(name: &str, games: &[u8], positions: &[u8]) {
    let folder = dir().join(name);
    std::fs::create_dir_all(&folder).unwrap();
    let (g, p) = (folder.join("games-000000.parquet"), folder.join("positions-000000.parquet"));
    std::fs::write(&g, games).unwrap();
    std::fs::write(&p, positions).unwrap();
    let t = Instant::now();
    for result in
        [read_games(&g).map(|_| ()), read_positions(&p).map(|_| ()), read_shard(&g).map(|_| ())]
    {
        if let Err(e) = result {
            assert!(e.to_string().contains("000000.parquet"), "{e}");
        }
    }
    assert!(t.elapsed() < Duration::from_secs(5), "slow on damaged input");
}

/// Where the first column's first page header starts in a parquet file's bytes.
fn first_page_offset(file: &[u8]) -> usize {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(bytes::Bytes::from(file.to_vec())).unwrap();
    let column = reader.metadata().row_group(0).column(0);
    // A dictionary page, when there is one, comes before the data pages.
    let start = column.dictionary_page_offset().unwrap_or(column.data_page_offset());
    usize::try_from(start).unwrap()
}

/// Thrift list headers for an unknown field (15, type list: skipped) announcing 2^31 - 1
/// elements: of doubles (element type 7) and of booleans (type 1). Parquet skips such a field
/// element by element. At the end of a file each double's skip used to read nothing and go on
/// (most of an hour), and a boolean's skip reads nothing at all, so two billion of them spin for
/// tens of seconds wherever they are; random cases of the damaged-files properties found both.
const HUGE_LISTS: [(&str, [u8; 7]); 2] = [
    ("doubles", [0xF9, 0xF7, 0xFF, 0xFF, 0xFF, 0xFF, 0x07]),
    ("booleans", [0xF9, 0xF1, 0xFF, 0xFF, 0xFF, 0xFF, 0x07]),
];

/// Each huge list put into each of the shard's two files by `insert` (the other file left whole)
/// must be refused within the 5 seconds `read_every_way` allows.
fn refused_quickly_in_each_file(name: &str, insert: impl Fn(&[u8], [u8; 7]) -> Vec<u8>) {
    let (games, positions) = shard_bytes();
    for (list, header) in HUGE_LISTS {
        let damaged = insert(games, header);
        read_every_way(&format!("{name}-{list}-g"), &damaged, positions);
        let damaged = insert(positions, header);
        read_every_way(&format!("{name}-{list}-p"), games, &damaged);
    }
}

/// A huge list just before the first column's first page header.
#[test]
fn a_page_header_announcing_a_huge_list_is_refused_quickly() {
    refused_quickly_in_each_file("huge", |original, header| {
        let at = first_page_offset(original);
        let mut damaged = original.to_vec();
        damaged.splice(at..at, header);
        damaged
    });
}

/// The same lists at the start of a file's footer (its `FileMetaData`, whose length in the last 8
/// bytes is grown to match).
#[test]
fn a_footer_announcing_a_huge_list_is_refused_quickly() {
    refused_quickly_in_each_file("footer", |original, header| {
        let n = original.len();
        let footer_len = u32::from_le_bytes(original[n - 8..n - 4].try_into().unwrap());
        let at = n - 8 - footer_len as usize;
        let mut damaged = original.to_vec();
        damaged.splice(at..at, header);
        let grown = (footer_len + header.len() as u32).to_le_bytes();
        let m = damaged.len();
        damaged[m - 8..m - 4].copy_from_slice(&grown);
        damaged
    });
}

fn thread_name() -> String {
    format!("{:?}", std::thread::current().id()).replace(|c: char| !c.is_alphanumeric(), "")
}

proptest! {
    #![proptest_config(fuzz::config(1000))]

    #[test]
    fn damaged_games_files_are_read_or_refused(d in damage()) {
        let (games, positions) = shard_bytes();
        read_every_way(&format!("g{}", thread_name()), &apply(games, &d), positions);
    }

    #[test]
    fn damaged_positions_files_are_read_or_refused(d in damage()) {
        let (games, positions) = shard_bytes();
        read_every_way(&format!("p{}", thread_name()), games, &apply(positions, &d));
    }

    #[test]
    fn arbitrary_bytes_are_refused(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        let (games, _) = shard_bytes();
        let mut framed = b"PAR1".to_vec();
        framed.extend(&bytes);
        framed.extend(b"PAR1");
        read_every_way(&format!("a{}", thread_name()), &framed, &bytes);
        read_every_way(&format!("b{}", thread_name()), &bytes, games);
    }
}
