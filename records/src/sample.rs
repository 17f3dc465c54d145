//! One recorded position → the tensors of one training sample: input planes `[planes, H, W]`,
//! a dense policy target `[A]`, the legal mask `[A]` and the value target `[V]`, optionally
//! under a symmetry of the board.
//!
//! The value classes are those of the network's value head (see `search::net`):
//! `[seat wins, for each seat in turn order starting with the mover ..., draw]`.

use games::{Encode, Encoding, PositionError, RuleOptions, State, Variant};

/// A game the trainer can learn: encodable, and parseable from the position strings of the
/// records with the run's rule options (which decide the legal actions).
pub trait TrainGame: Encode {
    /// Parses what the state's `Display` prints (a position string, optionally ending in
    /// ` move=...` for a move in progress).
    fn parse_position(s: &str, options: RuleOptions) -> Result<Self, PositionError>;
}

impl<V: Variant> TrainGame for State<V> {
    fn parse_position(s: &str, options: RuleOptions) -> Result<Self, PositionError> {
        State::<V>::parse_with(s, options)
    }
}

/// Why a recorded position cannot be turned into a sample (the caller adds file and row).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SampleError {
    #[error("position {position:?} does not parse: {message}")]
    Parse { position: String, message: String },
    #[error("recorded mover {recorded} but the position has seat {actual} to move")]
    WrongMover { recorded: u8, actual: u8 },
    #[error("the position has no legal action (the game is over)")]
    NoLegalAction,
    #[error("policy action {action} is not legal in the position")]
    IllegalPolicyAction { action: u16 },
    #[error("result {result:?} is not one score share per seat ({seats} seats)")]
    BadResult { result: Vec<f32>, seats: usize },
}

/// The value target of a finished game's `result` (score shares per seat, absolute seat order)
/// for a position with `mover` to move, written into `out` (`[players + 1]`).
///
/// All shares equal (a draw, a move-limit adjudication) → the draw class (last). Otherwise each
/// seat's share goes to its mover-relative class `(seat - mover) mod players`, normalised to
/// sum 1; for the one-winner results self-play records this is one-hot on the winner's class.
/// Negative or non-finite shares, or a wrong number of them, are an error.
pub fn value_target(
    result: &[f32],
    mover: usize,
    players: usize,
    out: &mut [f32],
) -> Result<(), SampleError> {
    check_shares(result, players, mover)?;
    if out.len() != players + 1 {
        return Err(SampleError::BadResult { result: result.to_vec(), seats: players });
    }
    out.fill(0.0);
    if result.iter().all(|&v| v == result[0]) {
        out[players] = 1.0;
        return Ok(());
    }
    let total: f32 = result.iter().sum();
    for (seat, &share) in result.iter().enumerate() {
        out[(seat + players - mover) % players] = share / total;
    }
    Ok(())
}

/// Checks that `shares` are score shares per seat (a game's result or a search's root values):
/// one for each of `players` seats, each finite and at least 0, and that `mover` is one of
/// those seats.
fn check_shares(shares: &[f32], players: usize, mover: usize) -> Result<(), SampleError> {
    if shares.len() != players
        || mover >= players
        || shares.iter().any(|v| !v.is_finite() || *v < 0.0)
    {
        return Err(SampleError::BadResult { result: shares.to_vec(), seats: players });
    }
    Ok(())
}

/// Mixes the search's values of a position (`root_values`, score shares per seat in absolute
/// seat order) into a value target `out` (`[players + 1]`, mover first, draw class last):
/// `(1 - weight) x out + weight x classes`, where seat `s`'s class gets its share and the draw
/// class what the shares leave of 1 (a search that sees a draw, or scores drawn ends below the
/// fair share, leaves some). Shares summing past 1 are scaled to 1. The result sums to 1.
///
/// The game's result says who won from here only once, at the end of a noisy game; the search's
/// value is an estimate for this very position (with `leaf_heuristic`, informed by the classical
/// evaluation), so mixing it in gives the value head a denser signal (Lc0's q-ratio).
pub fn search_value_target(
    root_values: &[f32],
    mover: usize,
    weight: f32,
    out: &mut [f32],
) -> Result<(), SampleError> {
    let players = out.len().saturating_sub(1);
    check_shares(root_values, players, mover)?;
    let total: f32 = root_values.iter().sum();
    let scale = if total > 1.0 { 1.0 / total } else { 1.0 };
    for o in out.iter_mut() {
        *o *= 1.0 - weight;
    }
    for (seat, &share) in root_values.iter().enumerate() {
        out[(seat + players - mover) % players] += weight * share * scale;
    }
    out[players] += weight * (1.0 - total * scale);
    Ok(())
}

/// One recorded decision, as much of a `PositionRow` as training needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The state's `Display` string.
    pub position: Box<str>,
    /// Seat to move.
    pub mover: u8,
    /// The game it belongs to (unique within its generation) and its move in it (every leg of
    /// a move shares one).
    pub game_id: u64,
    pub move_number: u32,
    /// Whether the decision got a full search (only those are policy targets).
    pub full_search: bool,
    /// Action indices (mover's frame) and their visit fractions.
    pub policy_actions: Box<[u16]>,
    pub policy_target: Box<[f32]>,
    /// Final result per seat (absolute seat order).
    pub result: Box<[f32]>,
    /// The search's value of the position per seat (absolute seat order): the root's mean
    /// backed-up value, as recorded.
    pub root_values: Box<[f32]>,
    /// The weight of `result` in the value target, the rest spread over every seat's fair share
    /// (see [`crate::value_target`]): 1 from a bare row; the replay window sets it from the
    /// distance to the game's end.
    pub outcome_weight: f32,
    /// Complete moves from this decision to its game's last recorded move, counting its own
    /// (1 on the last move): the moves-left target. 1 from a bare row; the replay window sets
    /// it.
    pub moves_to_end: u32,
}

impl From<crate::PositionRow> for Record {
    fn from(row: crate::PositionRow) -> Self {
        Record {
            position: row.position.into_boxed_str(),
            mover: row.mover,
            game_id: row.game_id,
            move_number: row.move_number,
            full_search: row.full_search,
            policy_actions: row.policy_actions.into_boxed_slice(),
            policy_target: row.policy_target.into_boxed_slice(),
            result: row.result.into_boxed_slice(),
            root_values: row.root_values.into_boxed_slice(),
            outcome_weight: 1.0,
            moves_to_end: 1,
        }
    }
}

/// Mixes the decisive part of a value target (`[players + 1]`, win classes first, draw class
/// last, summing to 1) with the fair share of every seat:
/// `win_k = weight × win_k + (1 - weight) × (sum of wins) / players`; the draw class is
/// unchanged. The result still sums to 1, and every seat's expected score moves towards
/// `1 / players` by `1 - weight`.
pub fn discount_towards_share(target: &mut [f32], weight: f32) {
    let (_draw, wins) = target.split_last_mut().expect("a draw class");
    let decisive: f32 = wins.iter().sum();
    let spread = (1.0 - weight) * decisive / wins.len() as f32;
    for p in wins {
        *p = weight * *p + spread;
    }
}

/// The output slices of one sample, each overwritten entirely.
pub struct SampleSlot<'a> {
    /// The encoding `planes` is written in (the network's).
    pub encoding: Encoding,
    /// `[planes, H, W]` of `encoding`'s layout
    pub planes: &'a mut [f32],
    /// `[A]`: the visit distribution (sums to 1 over legal actions), whatever `full_search`.
    pub policy: &'a mut [f32],
    /// `[A]`
    pub legal: &'a mut [bool],
    /// `[V]`
    pub value: &'a mut [f32],
}

/// Encodes `record` under symmetry `sym` (0 = identity) into `slot`, with `search_weight` of
/// the value target from the record's root values (see [`search_value_target`]; 0 = the game's
/// result alone; `train.search_value_weight`, one number for a whole replay window).
///
/// Under a symmetry, planes go through `G::transform_planes` and every action index (legal mask
/// and policy target alike) through `G::transform_action`; the value target is unchanged.
pub fn encode_record<G: TrainGame>(
    record: &Record,
    sym: usize,
    options: RuleOptions,
    search_weight: f32,
    slot: SampleSlot<'_>,
) -> Result<(), SampleError> {
    let state = G::parse_position(&record.position, options).map_err(|e| SampleError::Parse {
        position: record.position.to_string(),
        message: e.to_string(),
    })?;
    let actual = state.to_move().0;
    if actual != record.mover {
        return Err(SampleError::WrongMover { recorded: record.mover, actual });
    }
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    if actions.is_empty() {
        return Err(SampleError::NoLegalAction);
    }
    state.encode(slot.encoding, slot.planes);
    G::transform_planes(sym, slot.planes);
    slot.legal.fill(false);
    for &a in &actions {
        slot.legal[G::transform_action(sym, state.action_index(a))] = true;
    }
    slot.policy.fill(0.0);
    for (&action, &p) in record.policy_actions.iter().zip(record.policy_target.iter()) {
        if action as usize >= slot.legal.len() {
            return Err(SampleError::IllegalPolicyAction { action });
        }
        let index = G::transform_action(sym, action as usize);
        if !slot.legal[index] {
            return Err(SampleError::IllegalPolicyAction { action });
        }
        slot.policy[index] += p;
    }
    value_target(&record.result, record.mover as usize, G::NUM_PLAYERS, slot.value)?;
    discount_towards_share(slot.value, record.outcome_weight);
    if search_weight > 0.0 {
        search_value_target(&record.root_values, record.mover as usize, search_weight, slot.value)?;
    }
    Ok(())
}

/// Entropy (nats) of a distribution given as probabilities (zeros contribute nothing).
pub fn entropy(p: &[f32]) -> f32 {
    p.iter().filter(|&&x| x > 0.0).map(|&x| -x * x.ln()).sum()
}

/// Index of the largest entry (the first among equals); 0 for an empty slice.
pub fn argmax(v: &[f32]) -> usize {
    let mut best = 0;
    for (i, &x) in v.iter().enumerate() {
        if x > v[best] {
            best = i;
        }
    }
    best
}
