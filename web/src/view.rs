//! What the page is sent: the games' boards, a state with its legal next legs, a search's
//! analysis. Plain serializable structs built from the rules crate's types (docs/board.md, "The
//! HTTP interface"), so the page needs no rules of its own.

use games::{Action, Game, Landing, PieceKind, State, Variant, VariantKind};
use search::mcts::{Analysis, SearchSummary};
use serde::Serialize;

use crate::error::ServeError;

/// One game the server plays: its board and seats.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    pub name: &'static str,
    /// `square` (Camelot) or `hex` (Tri-Camelot, doubled coordinates).
    pub board: &'static str,
    pub seats: Vec<String>,
    pub seat_names: Vec<&'static str>,
    pub start: &'static str,
    pub cells: Vec<CellView>,
    /// The checkpoint the model was loaded from; `None`: uniform priors.
    pub model: Option<String>,
}

/// One cell of a board: `file` from 0 (`A`), `rank` from 1; `castle`: the seat whose castle it is.
#[derive(Clone, Debug, Serialize)]
pub struct CellView {
    pub name: String,
    pub file: i8,
    pub rank: i8,
    pub castle: Option<usize>,
}

impl GameView {
    /// The board and seats of `V`, with the name of its model.
    pub fn of<V: Variant>(model: Option<String>) -> GameView {
        let tables = V::tables();
        let geo = &tables.geometry;
        let cells = (0..geo.num_cells() as u8)
            .map(|c| {
                let (file, rank) = geo.coords(c);
                let castle = (0..V::NUM_PLAYERS)
                    .find(|&p| tables.landing[p][c as usize] == Landing::OwnCastle);
                CellView { name: geo.name(c).to_string(), file, rank, castle }
            })
            .collect();
        GameView {
            name: V::NAME,
            board: if V::NUM_DIRS == 6 { "hex" } else { "square" },
            seats: V::PLAYER_LETTERS.iter().map(char::to_string).collect(),
            seat_names: V::PLAYER_NAMES.to_vec(),
            start: V::START,
            cells,
            model,
        }
    }
}

/// A piece on a cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PieceView {
    pub cell: String,
    pub seat: usize,
    /// `man` or `knight`.
    pub kind: &'static str,
}

/// A legal next leg: `action` is what `/api/play` takes (`F6>F8`); `capture` the cell of the
/// piece it jumps, if it is a jump.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LegView {
    pub action: String,
    pub from: String,
    pub to: String,
    pub capture: Option<String>,
}

/// The end of a game: the score share of each seat and why it ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OverView {
    pub result: Vec<f32>,
    pub termination: &'static str,
}

/// A state of play, a move possibly in progress.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StateView {
    pub game: &'static str,
    /// The rules engine's position string (with ` move=...` while a move is in progress).
    pub position: String,
    pub to_move: usize,
    pub pieces: Vec<PieceView>,
    /// The cell of the piece that is moving, while a move is in progress.
    pub moving: Option<String>,
    /// Cells landed on during the move in progress, start first.
    pub landed: Vec<String>,
    /// Official notation of the legs played so far.
    pub partial: String,
    /// Legal next legs (end-move excluded: see `can_end`).
    pub legs: Vec<LegView>,
    /// Whether ending the move here is legal.
    pub can_end: bool,
    pub over: Option<OverView>,
    /// The move that led here, if this state starts a turn reached by a move.
    pub last_move: Option<String>,
}

impl StateView {
    pub fn of<V: Variant>(state: &State<V>) -> StateView {
        let geo = &V::tables().geometry;
        let name = |c: u8| geo.name(c).to_string();
        let mover = state.to_move();
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        let legs = actions
            .iter()
            .filter_map(|&a| {
                let (from, to) = leg_cells::<V>(a)?;
                let capture = geo
                    .midpoint(from, to)
                    .filter(|&mid| state.board().owner(mid).is_some_and(|o| o != mover));
                Some(LegView {
                    action: state.action_to_string(a),
                    from: name(from),
                    to: name(to),
                    capture: capture.map(name),
                })
            })
            .collect();
        let pieces = state
            .board()
            .pieces(geo.num_cells())
            .map(|(c, p)| PieceView {
                cell: name(c),
                seat: p.owner.index(),
                kind: match p.kind {
                    PieceKind::Man => "man",
                    PieceKind::Knight => "knight",
                },
            })
            .collect();
        StateView {
            game: V::NAME,
            position: state.to_string(),
            to_move: mover.index(),
            pieces,
            moving: state.moving_piece().map(name),
            landed: state.landed().iter().map(|&c| name(c)).collect(),
            partial: state.partial_notation(),
            legs,
            can_end: actions.contains(&Action::EndMove),
            over: state.outcome().map(|over| OverView {
                result: over.shares(V::NUM_PLAYERS),
                termination: over.termination.as_str(),
            }),
            last_move: state.last_move(),
        }
    }
}

/// The cells a leg goes from and to; `None` for end-move.
fn leg_cells<V: Variant>(action: Action) -> Option<(u8, u8)> {
    let geo = &V::tables().geometry;
    match action {
        Action::Leg { from, dir, kind } => Some((from, geo.leg_to(from, dir, kind))),
        Action::EndMove => None,
    }
}

/// One root action of an analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CandidateView {
    /// `F6>F8`, or `end`.
    pub action: String,
    pub from: Option<String>,
    pub to: Option<String>,
    pub visits: u32,
    pub prior: f32,
    /// Mean backed-up values per seat; `None` if never visited.
    pub values: Option<Vec<f32>>,
}

/// What a search thinks of its root, so far (`done: false`) or at its end.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalysisView {
    pub simulations: u32,
    pub done: bool,
    pub net_values: Vec<f32>,
    pub root_values: Vec<f32>,
    pub candidates: Vec<CandidateView>,
    pub pv: Vec<String>,
}

impl AnalysisView {
    /// The view of `analysis`, made from `summary` of a search of `root`.
    pub fn of<V: Variant>(
        root: &State<V>,
        summary: &SearchSummary<Action>,
        analysis: &Analysis<Action>,
        done: bool,
    ) -> AnalysisView {
        let geo = &V::tables().geometry;
        let seats = |v: &games::Values| v.0[..V::NUM_PLAYERS].to_vec();
        let candidates = analysis
            .actions
            .iter()
            .map(|line| {
                let cells = leg_cells::<V>(line.action);
                CandidateView {
                    action: root.action_to_string(line.action),
                    from: cells.map(|(f, _)| geo.name(f).to_string()),
                    to: cells.map(|(_, t)| geo.name(t).to_string()),
                    visits: line.visits,
                    prior: line.prior,
                    values: line.values.as_ref().map(seats),
                }
            })
            .collect();
        AnalysisView {
            simulations: summary.simulations,
            done,
            net_values: seats(&summary.net_values),
            root_values: seats(&summary.root_values),
            candidates,
            pv: analysis.principal_variation.clone(),
        }
    }
}

/// The game a request names.
pub fn parse_game(name: &str) -> Result<VariantKind, ServeError> {
    name.parse().map_err(|_| ServeError::UnknownGame(name.to_string()))
}

/// The state a position string names (`start`: the start position), under the default rules.
pub fn parse_state<V: Variant>(position: &str) -> Result<State<V>, ServeError> {
    let text = if position.trim() == "start" { V::START } else { position };
    text.parse().map_err(|e: games::PositionError| ServeError::BadPosition(e.to_string()))
}
