//! Board geometry shared by both variants: cells, their names, and precomputed step and leap tables.
//!
//! A board is a set of cells named by (file, rank). Cells are numbered by **square index**: rank
//! first (1 upwards), then file (A rightwards), as RULES.md fixes for canonical canter paths. A step
//! goes one cell in a direction, a leap two; a leap needs both cells it touches to exist.

use crate::action::LegKind;

/// Index of a cell in square-index order.
pub type Cell = u8;

/// A left-right mirror of a board that is a symmetry of its rules: where each cell and each
/// direction goes (`cell[c]`, `dir[d]`).
#[derive(Debug)]
pub struct Mirror {
    pub cell: Vec<Cell>,
    pub dir: Vec<u8>,
}

/// Marks "no cell" in the step and leap tables.
pub const NO_CELL: Cell = u8::MAX;

/// The most directions a board has (Camelot: 8, like a chess king).
pub const MAX_DIRS: usize = 8;

/// The most cells a board has (Camelot: 160).
pub const MAX_CELLS: usize = 160;

/// Immutable description of one board.
#[derive(Debug)]
pub struct Geometry {
    /// (file, rank) of each cell: file 0 = A, rank as printed (from 1).
    coords: Vec<(i8, i8)>,
    names: Vec<String>,
    /// `(file delta, rank delta)` of each direction.
    dirs: Vec<(i8, i8)>,
    step: Vec<[Cell; MAX_DIRS]>,
    leap: Vec<[Cell; MAX_DIRS]>,
    /// Directions ordered so that, from any cell, their leap targets come in increasing cell
    /// index (used to build canonical canter paths without sorting).
    leap_order: Vec<u8>,
    /// `lookup[file][rank]`, NO_CELL where there is no cell.
    lookup: Vec<Vec<Cell>>,
}

impl Geometry {
    /// Builds a geometry from its cells (any order) and direction vectors.
    ///
    /// Panics if the cell list has duplicates or more than [`MAX_CELLS`] cells: it is only ever
    /// called with the two fixed boards, and the tests build both.
    pub(crate) fn new(mut coords: Vec<(i8, i8)>, dirs: Vec<(i8, i8)>) -> Geometry {
        assert!(coords.len() <= MAX_CELLS && dirs.len() <= MAX_DIRS);
        coords.sort_by_key(|&(f, r)| (r, f));
        let max_f = coords.iter().map(|c| c.0).max().unwrap_or(0) as usize;
        let max_r = coords.iter().map(|c| c.1).max().unwrap_or(0) as usize;
        let mut lookup = vec![vec![NO_CELL; max_r + 1]; max_f + 1];
        for (i, &(f, r)) in coords.iter().enumerate() {
            assert_eq!(lookup[f as usize][r as usize], NO_CELL, "duplicate cell");
            lookup[f as usize][r as usize] = i as Cell;
        }
        let at = |f: i8, r: i8| -> Cell {
            if f < 0 || r < 0 || f as usize > max_f || r as usize > max_r {
                NO_CELL
            } else {
                lookup[f as usize][r as usize]
            }
        };
        let mut step = vec![[NO_CELL; MAX_DIRS]; coords.len()];
        let mut leap = vec![[NO_CELL; MAX_DIRS]; coords.len()];
        for (i, &(f, r)) in coords.iter().enumerate() {
            for (d, &(df, dr)) in dirs.iter().enumerate() {
                let s = at(f + df, r + dr);
                step[i][d] = s;
                if s != NO_CELL {
                    leap[i][d] = at(f + 2 * df, r + 2 * dr);
                }
            }
        }
        // Leap targets sorted by (rank delta, file delta) come in increasing square index.
        let mut leap_order: Vec<u8> = (0..dirs.len() as u8).collect();
        leap_order.sort_by_key(|&d| (dirs[d as usize].1, dirs[d as usize].0));
        let names =
            coords.iter().map(|&(f, r)| format!("{}{}", (b'A' + f as u8) as char, r)).collect();
        Geometry { coords, names, dirs, step, leap, leap_order, lookup }
    }

    /// Number of cells.
    pub fn num_cells(&self) -> usize {
        self.coords.len()
    }

    /// Number of directions.
    pub fn num_dirs(&self) -> usize {
        self.dirs.len()
    }

    /// (file, rank) of a cell; file 0 is `A`, ranks start at 1.
    pub fn coords(&self, c: Cell) -> (i8, i8) {
        self.coords[c as usize]
    }

    /// The cell at (file, rank), if the board has it.
    pub fn at(&self, file: i32, rank: i32) -> Option<Cell> {
        let c = *self.lookup.get(usize::try_from(file).ok()?)?.get(usize::try_from(rank).ok()?)?;
        (c != NO_CELL).then_some(c)
    }

    /// Upper-case name of a cell, e.g. `F16`.
    pub fn name(&self, c: Cell) -> &str {
        &self.names[c as usize]
    }

    /// Parses a cell name (upper case, as in the notation). None if the board has no such cell.
    pub fn parse_cell(&self, s: &str) -> Option<Cell> {
        let b = s.as_bytes();
        if b.len() < 2 || b.len() > 3 || !b[0].is_ascii_uppercase() {
            return None;
        }
        let digits = &s[1..];
        if !digits.bytes().all(|c| c.is_ascii_digit()) || digits.starts_with('0') {
            return None;
        }
        self.at((b[0] - b'A') as i32, digits.parse().ok()?)
    }

    /// The direction vector `(file delta, rank delta)` of direction `d`.
    pub fn dir_vector(&self, d: u8) -> (i8, i8) {
        self.dirs[d as usize]
    }

    /// The cell one step from `c` in direction `d`, or [`NO_CELL`].
    #[inline]
    pub fn step(&self, c: Cell, d: u8) -> Cell {
        self.step[c as usize][d as usize]
    }

    /// The cell two steps from `c` in direction `d`, or [`NO_CELL`].
    #[inline]
    pub fn leap(&self, c: Cell, d: u8) -> Cell {
        self.leap[c as usize][d as usize]
    }

    /// Where a leg from `c` in direction `d` lands: one step on, or two for a leap; [`NO_CELL`]
    /// off the board.
    #[inline]
    pub fn leg_to(&self, c: Cell, d: u8, kind: LegKind) -> Cell {
        match kind {
            LegKind::Step => self.step(c, d),
            LegKind::Leap => self.leap(c, d),
        }
    }

    /// Directions in the order whose leap targets have increasing cell index.
    #[inline]
    pub fn leap_order(&self) -> &[u8] {
        &self.leap_order
    }

    /// The direction and kind of the leg from `a` to `b`: `Some((d, false))` for a step,
    /// `Some((d, true))` for a leap, None if `b` is neither.
    pub fn leg_between(&self, a: Cell, b: Cell) -> Option<(u8, bool)> {
        (0..self.dirs.len() as u8).find_map(|d| {
            if self.step(a, d) == b {
                Some((d, false))
            } else if self.leap(a, d) == b {
                Some((d, true))
            } else {
                None
            }
        })
    }

    /// The cell a leap from `a` to `b` passes over.
    pub fn midpoint(&self, a: Cell, b: Cell) -> Option<Cell> {
        match self.leg_between(a, b) {
            Some((d, true)) => Some(self.step(a, d)),
            _ => None,
        }
    }

    /// The cell permutation induced by a map on (file, rank) coordinates, which must map the
    /// board onto itself.
    pub(crate) fn permutation(&self, map: impl Fn(i8, i8) -> (i8, i8)) -> Vec<Cell> {
        (0..self.num_cells())
            .map(|c| {
                let (f, r) = self.coords[c];
                let (f2, r2) = map(f, r);
                self.at(f2 as i32, r2 as i32).expect("symmetry maps the board onto itself")
            })
            .collect()
    }

    /// The direction permutation induced by a linear map on direction vectors.
    pub(crate) fn dir_permutation(&self, map: impl Fn(i8, i8) -> (i8, i8)) -> Vec<u8> {
        self.dirs
            .iter()
            .map(|&(df, dr)| {
                let v = map(df, dr);
                self.dirs.iter().position(|&w| w == v).expect("symmetry maps directions") as u8
            })
            .collect()
    }
}
