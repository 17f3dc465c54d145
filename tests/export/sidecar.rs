//! A reader of the export sidecar that uses nothing of this project but the JSON: what a
//! program in another language would write to encode a position string and to number its legs.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

/// The sidecar, indexed for lookups.
pub struct Spec {
    variant: String,
    players: usize,
    letters: Vec<String>,
    /// Per seat: `own_castle` / `goal` / `forbidden` → squares.
    sets: Vec<HashMap<String, HashSet<String>>>,
    /// Board square → flat grid index `row * cols + col`.
    grid: HashMap<String, usize>,
    area: usize,
    /// Each plane's `fill` object, in plane order.
    fills: Vec<Value>,
    /// Per seat: board square → frame square.
    frames: Vec<HashMap<String, String>>,
    /// (from, to) squares of a leg → its index (squares in the frame's names).
    legs: HashMap<(String, String), usize>,
    /// (from, to) of a leap → the square it passes over.
    over: HashMap<(String, String), String>,
    end_move: usize,
}

fn str_of(v: &Value) -> String {
    v.as_str().unwrap_or_else(|| panic!("expected a string, got {v}")).to_string()
}

fn num(v: &Value) -> usize {
    v.as_u64().unwrap_or_else(|| panic!("expected a number, got {v}")) as usize
}

fn arr(v: &Value) -> &Vec<Value> {
    v.as_array().unwrap_or_else(|| panic!("expected an array, got {v}"))
}

impl Spec {
    /// Reads the sidecar, checking that the action table follows its formula and that the
    /// shapes agree.
    pub fn from_json(v: &Value) -> Spec {
        let shape = arr(&v["input"]["shape"]);
        let (rows, cols) = (num(&v["board"]["grid_rows"]), num(&v["board"]["grid_cols"]));
        assert_eq!((num(&shape[2]), num(&shape[3])), (rows, cols));
        let fills: Vec<Value> = arr(&v["planes"]).iter().map(|p| p["fill"].clone()).collect();
        assert_eq!(fills.len(), num(&shape[1]));
        let grid: HashMap<String, usize> = arr(&v["board"]["cells"])
            .iter()
            .map(|c| (str_of(&c["square"]), num(&c["row"]) * cols + num(&c["col"])))
            .collect();
        assert_eq!(grid.len() + arr(&v["board"]["off_board"]).len(), rows * cols);
        let players = arr(&v["players"]);
        let sets = players
            .iter()
            .map(|p| {
                ["own_castle", "goal", "forbidden"]
                    .iter()
                    .map(|k| (k.to_string(), arr(&p[*k]).iter().map(str_of).collect()))
                    .collect()
            })
            .collect();
        let frames = arr(&v["perspective"]["seats"])
            .iter()
            .map(|s| {
                let squares = s["squares"].as_object().unwrap();
                squares.iter().map(|(k, f)| (k.clone(), str_of(f))).collect()
            })
            .collect();
        let directions: Vec<String> =
            arr(&v["board"]["directions"]).iter().map(|d| str_of(&d["name"])).collect();
        let cell_of: HashMap<String, usize> = arr(&v["board"]["cells"])
            .iter()
            .map(|c| (str_of(&c["square"]), num(&c["cell"])))
            .collect();
        let (mut legs, mut over) = (HashMap::new(), HashMap::new());
        for (i, leg) in arr(&v["actions"]["legs"]).iter().enumerate() {
            let index = num(&leg["index"]);
            let square = str_of(&leg["square"]);
            let dir = directions.iter().position(|d| *d == str_of(&leg["direction"])).unwrap();
            let leap = str_of(&leg["kind"]) == "leap";
            assert_eq!(index, i);
            assert_eq!(num(&leg["cell"]), cell_of[&square]);
            assert_eq!(index, (cell_of[&square] * directions.len() + dir) * 2 + usize::from(leap));
            if let Some(to) = leg["to"].as_str() {
                let key = (square, to.to_string());
                if leap {
                    over.insert(key.clone(), str_of(&leg["over"]));
                }
                assert!(legs.insert(key, index).is_none(), "two legs with the same squares");
            }
        }
        let end_move = num(&v["actions"]["end_move"]);
        assert_eq!(end_move + 1, num(&v["actions"]["count"]));
        assert_eq!(end_move, arr(&v["actions"]["legs"]).len());
        Spec {
            variant: str_of(&v["variant"]),
            players: players.len(),
            letters: players.iter().map(|p| str_of(&p["letter"])).collect(),
            sets,
            grid,
            area: rows * cols,
            fills,
            frames,
            legs,
            over,
            end_move,
        }
    }

    /// The input planes of a position string (`… move=<legs>` during a move), flattened
    /// `[plane, row, col]`.
    pub fn encode(&self, position: &str) -> Vec<f32> {
        let p = parse(position, &self.letters);
        assert_eq!(p.variant, self.variant);
        // Play the legs of the move in progress: the piece moves, jumped pieces go.
        let mut pieces = p.pieces.clone();
        let captured = p.legs.iter().any(|(_, _, jump)| *jump);
        if let Some(first) = p.landed.first() {
            let piece = pieces.remove(first).expect("a piece starts the move");
            for (from, to, jump) in &p.legs {
                if *jump {
                    pieces.remove(&self.over[&(from.clone(), to.clone())]);
                }
            }
            pieces.insert(p.landed.last().unwrap().clone(), piece);
        }
        let me = p.mover;
        let mut out = vec![0.0; self.fills.len() * self.area];
        for square in self.grid.keys() {
            let at = self.grid[&self.frames[me][square]];
            for (i, fill) in self.fills.iter().enumerate() {
                let relative = |k: &Value| (me + num(k)) % self.players;
                let yes = |b: bool| if b { 1.0 } else { 0.0 };
                out[i * self.area + at] = match fill["kind"].as_str().unwrap() {
                    "pieces" => yes(pieces.get(square).is_some_and(|(seat, kind)| {
                        *seat == relative(&fill["relative_seat"])
                            && kind == if fill["piece"] == "man" { "M" } else { "K" }
                    })),
                    "squares" => yes(self.sets[me][&str_of(&fill["set"])].contains(square)),
                    "moving_piece" => yes(p.landed.last() == Some(square)),
                    "landed" => yes(p.landed.contains(square)),
                    "captured" => yes(captured),
                    "on_board" => 1.0,
                    "castle_moves" => {
                        let seat = (me + num(&fill["relative_seat"])) % 2;
                        p.castle_moves[seat] as f32 * fill["scale"].as_f64().unwrap() as f32
                    }
                    other => panic!("unknown plane kind {other}"),
                };
            }
        }
        out
    }

    /// The action index of a leg written `F5>F9` (board squares) or `end`, for `mover`.
    pub fn action_index(&self, mover: usize, leg: &str) -> usize {
        if leg == "end" {
            return self.end_move;
        }
        let (from, to) = leg.split_once('>').unwrap();
        let frame = &self.frames[mover];
        self.legs[&(frame[from].clone(), frame[to].clone())]
    }
}

/// What a position string says.
struct Parsed {
    variant: String,
    mover: usize,
    /// Square → (seat, `K` or `M`).
    pieces: HashMap<String, (usize, String)>,
    castle_moves: [u32; 2],
    /// Squares landed on during the move in progress, start first.
    landed: Vec<String>,
    /// Its legs: (from, to, jump).
    legs: Vec<(String, String, bool)>,
}

/// Parses `variant SIDE L:KC6,MD6,… … [cm=a,b] [move=C6-C8xE10]`.
fn parse(position: &str, letters: &[String]) -> Parsed {
    let seat = |l: &str| letters.iter().position(|x| x == l).unwrap();
    let mut tokens = position.split_whitespace();
    let variant = tokens.next().unwrap().to_string();
    let mover = seat(tokens.next().unwrap());
    let mut p = Parsed {
        variant,
        mover,
        pieces: HashMap::new(),
        castle_moves: [0, 0],
        landed: vec![],
        legs: vec![],
    };
    for token in tokens {
        if let Some(cm) = token.strip_prefix("cm=") {
            let (a, b) = cm.split_once(',').unwrap();
            p.castle_moves = [a.parse().unwrap(), b.parse().unwrap()];
        } else if let Some(legs) = token.strip_prefix("move=") {
            let mut square = String::new();
            let mut jumps = vec![];
            for c in legs.chars() {
                if c == '-' || c == 'x' {
                    p.landed.push(std::mem::take(&mut square));
                    jumps.push(c == 'x');
                } else {
                    square.push(c);
                }
            }
            p.landed.push(square);
            for (i, jump) in jumps.into_iter().enumerate() {
                p.legs.push((p.landed[i].clone(), p.landed[i + 1].clone(), jump));
            }
        } else {
            let (letter, list) = token.split_once(':').unwrap();
            for piece in list.split(',').filter(|s| !s.is_empty()) {
                p.pieces.insert(piece[1..].to_string(), (seat(letter), piece[..1].to_string()));
            }
        }
    }
    p
}
