//! Fixed Zobrist keys for position hashes (transposition and evaluation caches).
//!
//! The keys come from a fixed-seed splitmix64 stream at compile time, so hashes are the same in
//! every build and run (records and caches may rely on that).

use crate::geometry::MAX_CELLS;
use crate::seed::splitmix64 as splitmix;

const fn piece_keys() -> [[u64; 8]; MAX_CELLS] {
    let mut keys = [[0; 8]; MAX_CELLS];
    let mut c = 0;
    while c < MAX_CELLS {
        let mut code = 1;
        while code < 8 {
            keys[c][code] = splitmix((c * 8 + code) as u64);
            code += 1;
        }
        c += 1;
    }
    keys
}

/// `PIECE[cell][piece code]`; code 0 (empty) hashes to 0.
pub(crate) static PIECE: [[u64; 8]; MAX_CELLS] = piece_keys();

/// Key of the player to move.
pub(crate) const fn side(p: u8) -> u64 {
    splitmix(0x5151_0000 + p as u64)
}

/// Key of a player's castle-move count.
pub(crate) const fn castle_moves(p: usize, n: u8) -> u64 {
    if n == 0 { 0 } else { splitmix(0x6262_0000 + 16 * p as u64 + n as u64) }
}

/// Key of the `i`-th cell landed on during the move in progress.
pub(crate) const fn leg(i: usize, cell: u8) -> u64 {
    splitmix(0x7373_0000_0000 + ((i as u64) << 8) + cell as u64)
}
