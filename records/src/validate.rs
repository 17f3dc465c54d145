//! The value contracts of [`GameRecord`] and [`PositionRow`], checked by the writer (so a bad
//! record is refused before it reaches disk) and by the reader (so a bad file is refused before
//! it reaches training).

use std::collections::HashMap;
use std::path::Path;

use super::{GameRecord, PositionRow, RecordError, variant_seats};

/// How far the policy target may sum from 1 (f32 visit fractions of a few hundred actions).
const POLICY_SUM_TOLERANCE: f32 = 1e-3;

/// Seats of `variant`, or an error naming the unknown variant.
pub(crate) fn seats(path: &Path, row: usize, variant: &str) -> Result<usize, RecordError> {
    variant_seats(variant)
        .ok_or_else(|| RecordError::invalid(path, row, format!("unknown variant {variant:?}")))
}

/// A per-seat list: one finite entry per seat.
fn per_seat(
    path: &Path,
    row: usize,
    column: &str,
    values: &[f32],
    seats: usize,
) -> Result<(), RecordError> {
    if values.len() != seats {
        let message = format!("{column} has {} entries for {seats} seats", values.len());
        return Err(RecordError::invalid(path, row, message));
    }
    if let Some(v) = values.iter().find(|v| !v.is_finite()) {
        return Err(RecordError::invalid(path, row, format!("{column} contains {v}")));
    }
    Ok(())
}

/// Checks one game (the termination is a typed value, so only the reader can get it wrong).
pub(crate) fn game(path: &Path, row: usize, game: &GameRecord) -> Result<(), RecordError> {
    let seats = seats(path, row, &game.variant)?;
    per_seat(path, row, "result", &game.result, seats)?;
    if game.plies as usize != game.moves.len() {
        let message = format!("plies is {} but there are {} moves", game.plies, game.moves.len());
        return Err(RecordError::invalid(path, row, message));
    }
    Ok(())
}

/// Checks one position of a game of a variant with `seats` seats.
pub(crate) fn position(
    path: &Path,
    row: usize,
    position: &PositionRow,
    seats: usize,
) -> Result<(), RecordError> {
    let invalid = |message: String| Err(RecordError::invalid(path, row, message));
    if usize::from(position.mover) >= seats {
        return invalid(format!("mover {} in a {seats}-seat game", position.mover));
    }
    let (actions, target) = (&position.policy_actions, &position.policy_target);
    if actions.len() != target.len() {
        let (a, t) = (actions.len(), target.len());
        return invalid(format!("{a} policy actions but {t} policy targets"));
    }
    if actions.is_empty() {
        return invalid("empty policy".to_string());
    }
    if let Some(p) = target.iter().find(|p| !(p.is_finite() && **p >= 0.0)) {
        return invalid(format!("policy target contains {p}"));
    }
    let sum: f32 = target.iter().sum();
    if (sum - 1.0).abs() > POLICY_SUM_TOLERANCE {
        return invalid(format!("policy target sums to {sum}, not 1"));
    }
    per_seat(path, row, "root_values", &position.root_values, seats)?;
    per_seat(path, row, "net_values", &position.net_values, seats)?;
    per_seat(path, row, "result", &position.result, seats)
}

/// Game ids of `games` mapped to their row, refusing duplicates.
pub(crate) fn game_index<'a>(
    path: &Path,
    games: impl IntoIterator<Item = &'a GameRecord>,
) -> Result<HashMap<u64, usize>, RecordError> {
    let mut index = HashMap::new();
    for (row, game) in games.into_iter().enumerate() {
        if index.insert(game.game_id, row).is_some() {
            let message = format!("game_id {} appears twice", game.game_id);
            return Err(RecordError::invalid(path, row, message));
        }
    }
    Ok(index)
}

/// The row of the game a position belongs to.
pub(crate) fn game_of(
    path: &Path,
    row: usize,
    index: &HashMap<u64, usize>,
    game_id: u64,
) -> Result<usize, RecordError> {
    index.get(&game_id).copied().ok_or_else(|| {
        RecordError::invalid(path, row, format!("game_id {game_id} is not a game of this shard"))
    })
}
