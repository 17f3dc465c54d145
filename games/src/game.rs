//! The `Game` trait shared by every game the search can play, and the small value types around it.
//!
//! Values are kept **per seat** (an array indexed by player), never as a single number with a sign
//! flip: Tri-Camelot has three players, and in both variants the same player moves again between
//! the legs of one move.

use std::fmt;

use crate::names::impl_names;

/// The most players any game in this crate has (Tri-Camelot).
pub const MAX_PLAYERS: usize = 3;

/// A seat at the table: `0..NUM_PLAYERS`, in turn order (White/Black; Blue/Red/Green).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Player(pub u8);

impl Player {
    /// The seat as an index into per-seat arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Per-seat scores in absolute seat order. For a finished game they are the score shares:
/// 1 for the winner and 0 for the others, or `1 / NUM_PLAYERS` each for a draw; entries beyond
/// `NUM_PLAYERS` are 0.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Values(pub [f32; MAX_PLAYERS]);

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The score shares of this outcome for a game of `num_players` players.
    pub fn values(self, num_players: usize) -> Values {
        let mut v = [0.0; MAX_PLAYERS];
        match self {
            Outcome::Win(p) => v[p.index()] = 1.0,
            Outcome::Draw => v[..num_players].fill(1.0 / num_players as f32),
        }
        Values(v)
    }
}

/// Why a game ended. Self-play adds `MoveLimit` (a ply cap adjudicated as a draw) and `Resign`;
/// the rules engine itself produces the first four.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// Camelot: both squares of the opponent's castle occupied; Tri-Camelot: the target castle reached.
    Castle,
    /// All opposing pieces captured (Tri-Camelot: the last player with pieces).
    CaptureAll,
    /// The player to move had no legal move (Camelot: loses or draws; Tri-Camelot: eliminated).
    NoMove,
    /// Camelot: neither player has more than one piece.
    Draw,
    /// Self-play adjudication: the ply cap was reached; scored as a draw.
    MoveLimit,
    /// Self-play adjudication: a player resigned.
    Resign,
}

impl Termination {
    /// Every termination, in the order reports list them (the rules' own first).
    pub const ALL: [Termination; 6] = [
        Termination::Castle,
        Termination::CaptureAll,
        Termination::NoMove,
        Termination::Draw,
        Termination::MoveLimit,
        Termination::Resign,
    ];

    /// The name used in records and on the command line.
    pub const fn as_str(self) -> &'static str {
        match self {
            Termination::Castle => "castle",
            Termination::CaptureAll => "capture-all",
            Termination::NoMove => "no-move",
            Termination::Draw => "draw",
            Termination::MoveLimit => "move-limit",
            Termination::Resign => "resign",
        }
    }
}

impl_names!(Termination, "termination");

/// The end of a game: who won and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameOver {
    pub outcome: Outcome,
    pub termination: Termination,
}

impl GameOver {
    /// Each seat's score share, in seat order, for a game of `num_players` players: what a
    /// saved game's result and the board's verdict show.
    pub fn shares(&self, num_players: usize) -> Vec<f32> {
        self.outcome.values(num_players).0[..num_players].to_vec()
    }
}

/// A game as the search sees it: a state that advances one **action** at a time, with per-seat
/// results. In the spirit of OpenSpiel's `State`.
///
/// Contract:
/// - `legal_actions` is empty exactly when `outcome()` is `Some`, has no duplicates, and is sorted
///   by `action_index`.
/// - `play` must only be given a legal action (checked with `debug_assert!`; use
///   [`Game::is_legal`] first for untrusted input).
/// - `action_index` maps the legal actions of a state injectively into `0..NUM_ACTIONS`, from the
///   point of view of the player to move, and `action_from_index` inverts it (for any index, it
///   returns the action that index denotes in this state, legal or not, when it is well formed).
pub trait Game: Clone + Send + Sync + fmt::Display + fmt::Debug + 'static {
    /// One step of play (for Camelot and Tri-Camelot: one leg of a move, or end-move).
    type Action: Copy + Eq + std::hash::Hash + fmt::Debug + Send + Sync + 'static;

    /// Short lowercase name, as in position strings and records.
    const NAME: &'static str;
    /// Number of seats.
    const NUM_PLAYERS: usize;
    /// Width of the policy head: the number of distinct action indices.
    const NUM_ACTIONS: usize;

    /// The start position.
    fn initial() -> Self;
    /// The player to move (stays the same across the legs of one move).
    fn to_move(&self) -> Player;
    /// Appends the legal actions, sorted by `action_index`, to `out` (which is cleared first).
    fn legal_actions(&self, out: &mut Vec<Self::Action>);
    /// Plays a legal action.
    fn play(&mut self, action: Self::Action);
    /// `Some` once the game is over.
    fn outcome(&self) -> Option<GameOver>;
    /// The policy index of `action` from the mover's point of view, in `0..NUM_ACTIONS`.
    fn action_index(&self, action: Self::Action) -> usize;
    /// The action denoted by `index` in this state (None if the index names no well-formed action).
    fn action_from_index(&self, index: usize) -> Option<Self::Action>;
    /// A hash of everything that decides the future of the game (position, mover, move in progress).
    fn hash(&self) -> u64;
    /// Readable form of an action in this state.
    fn action_to_string(&self, action: Self::Action) -> String;

    /// If the last `play` completed a move, that move in official notation (for records);
    /// None in the middle of a move, and for games without such a notation.
    fn last_move(&self) -> Option<String> {
        None
    }

    /// Whether `action` is legal here.
    fn is_legal(&self, action: Self::Action) -> bool {
        let mut v = Vec::new();
        self.legal_actions(&mut v);
        v.contains(&action)
    }

    /// Whether the mover must capture here: every legal action belongs to a capturing move (a
    /// compulsory capture, or a chain that must go on). A static judgement of such a position
    /// is least sure of it (the material is about to change), so a search may pass through it
    /// (`mcts.forced_legs = "pass_captures"`). False (the default) for games without captures.
    fn must_capture(&self) -> bool {
        false
    }

    /// The material each of `legal` (this state's legal actions, in order) captures on the way
    /// to the end of the move, by the best complete move it begins, in Men (a Knight counts
    /// 1.4, as the classical players weigh it): 0 for an action that begins no capture. Pieces
    /// taken by legs already played do not count. Written to `gains` (cleared first), one entry
    /// per action. A search tries captures in this order (`mcts.captures = "first"`), optional
    /// Knight's Charges included. Zeros (the default) for games without captures.
    fn capture_gains(&self, legal: &[Self::Action], gains: &mut Vec<f32>) {
        gains.clear();
        gains.resize(legal.len(), 0.0);
    }

    /// The next action of a move that wins the game at once for the mover, if there is one (a
    /// search may then score this position a win without evaluating it, and play the action at
    /// its root: `mcts.win_check = "in_one"`). None (the default) for games without such a check.
    fn winning_action(&self) -> Option<Self::Action> {
        None
    }

    /// Each seat's material (Camelot and Tri-Camelot: the pieces it has on the board), for
    /// adjudicating games cut short by a move limit; None (the default) for games without one.
    /// Entries beyond `NUM_PLAYERS` are 0.
    fn material(&self) -> Option<[u32; MAX_PLAYERS]> {
        None
    }

    /// Each seat's progress, for adjudicating games cut short by a move limit (Camelot and
    /// Tri-Camelot: each piece counts 1, plus up to 1 more the closer it stands to the seat's goal
    /// castle); None (the default) for games without one. Entries beyond `NUM_PLAYERS` are 0.
    fn progress(&self) -> Option<[f32; MAX_PLAYERS]> {
        None
    }

    /// A random sparse position of this game with the same rule options, each seat's piece count
    /// drawn from `pieces` (Camelot and Tri-Camelot: [`Position::random_endgame`](crate::Position::random_endgame)),
    /// for varied self-play starts. None (the default) for games without one, or when `pieces`
    /// allows no playable position.
    fn random_endgame(
        &self,
        _rng: &mut dyn rand::RngCore,
        _pieces: std::ops::RangeInclusive<u32>,
    ) -> Option<Self> {
        None
    }

    /// The per-seat score shares of a finished game.
    fn returns(&self) -> Option<Values> {
        self.outcome().map(|o| o.outcome.values(Self::NUM_PLAYERS))
    }
}
