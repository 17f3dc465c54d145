//! Actions of the leg interface (DESIGN.md §3): one leg of a move, or ending a move where
//! stopping is optional.

/// Whether a leg goes one cell or leaps two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LegKind {
    Step,
    Leap,
}

/// One step of play for the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The moving piece, standing on `from`, steps or leaps in direction `dir`.
    Leg { from: u8, dir: u8, kind: LegKind },
    /// Stop here: the legs played so far are a complete move that could also go on.
    EndMove,
}
