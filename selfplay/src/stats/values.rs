//! The value probe: what a model's value head says of positions whose results are known,
//! by the mover's material balance.
//!
//! A value head that sees material rates a position two Men down below one two Men up, as the
//! games that passed through them scored. This measures that on a fixed set of positions (the
//! states before each move of recorded games, typically `alphabeta:depth=2` against `depth=1`,
//! where two Men down scores ~0.32): per balance bucket, the games' mean score for the mover
//! beside each model's expected score (a draw counted at the fair share), its win/(win+loss)
//! and its draw mass. A well-calibrated head tracks the games' score and is monotone in the
//! balance; a head trained on a target that moves mass into the draw class shows that mass on
//! positions far from the end of games that were never drawn.

use games::{Game, Player, State, Variant};

use super::replay::bad_game;
use super::tactical_set::states_before_moves;
use records::collection::{SourcedGame, StatsError};
use search::Evaluator;

/// A Knight's worth in Men, for the balance (alpha-beta's material weights, rounded).
pub const KNIGHT: f32 = 1.4;

/// The balance buckets: the mover's material minus the opponents' mean, in Men, rounded to the
/// nearest integer and clamped to `-MAX_BALANCE..=MAX_BALANCE`.
pub const MAX_BALANCE: i32 = 4;

/// Positions at least this many complete moves from their game's end count for
/// [`ModelValues::far_draw`].
pub const FAR_MOVES: u32 = 16;

/// States evaluated per network call.
const BATCH: usize = 256;

/// One position of the probe.
#[derive(Clone, Debug)]
pub struct ProbePosition<V: Variant> {
    pub state: State<V>,
    /// The bucket of the mover's material balance.
    pub balance: i32,
    /// The game's score for the mover (its share of the result: 1 win, 0 loss, 0.5 a
    /// two-player draw).
    pub score: f32,
    /// Complete moves from this position to the game's end, counting the next one.
    pub moves_to_end: u32,
}

/// The mover's material minus the mean of the other seats', in Men (a Knight [`KNIGHT`]).
pub fn material_balance<V: Variant>(state: &State<V>) -> f32 {
    let n = V::NUM_PLAYERS;
    let mut material = [0.0f32; games::MAX_PLAYERS];
    for (_, piece) in state.board().pieces(V::tables().geometry.num_cells()) {
        material[piece.owner.index()] +=
            if piece.kind == games::PieceKind::Knight { KNIGHT } else { 1.0 };
    }
    let mover = state.to_move().index();
    let others: f32 = (0..n).filter(|&s| s != mover).map(|s| material[s]).sum();
    material[mover] - others / (n - 1) as f32
}

/// The bucket of a balance.
pub fn bucket(balance: f32) -> i32 {
    (balance.round() as i32).clamp(-MAX_BALANCE, MAX_BALANCE)
}

/// The probe's positions of `games`: every state before a complete move that is not a finished
/// game, with the mover's bucket, score and distance to the end.
pub fn probe_positions<V: Variant>(
    games: &[SourcedGame],
) -> Result<Vec<ProbePosition<V>>, StatsError> {
    let mut positions = Vec::new();
    for g in games {
        let r = &g.record;
        let states = states_before_moves::<V>(&r.start_position, &r.moves).map_err(bad_game(g))?;
        let total = states.len() as u32;
        for (i, state) in states.into_iter().enumerate() {
            if state.outcome().is_some() {
                continue;
            }
            let mover = state.to_move().index();
            let score = r.result.get(mover).copied().unwrap_or(0.0);
            let balance = bucket(material_balance(&state));
            positions.push(ProbePosition { state, balance, score, moves_to_end: total - i as u32 });
        }
    }
    Ok(positions)
}

/// The games' side of one balance bucket.
#[derive(Clone, Debug, PartialEq)]
pub struct Bucket {
    pub balance: i32,
    pub positions: usize,
    /// The games' mean score for the mover.
    pub score: f64,
}

/// The games' figures per bucket, `-MAX_BALANCE..=MAX_BALANCE` (buckets without positions
/// included, with 0 positions and score 0).
pub fn buckets<V: Variant>(positions: &[ProbePosition<V>]) -> Vec<Bucket> {
    (-MAX_BALANCE..=MAX_BALANCE)
        .map(|balance| {
            let scores: Vec<f64> = positions
                .iter()
                .filter(|p| p.balance == balance)
                .map(|p| f64::from(p.score))
                .collect();
            Bucket { balance, positions: scores.len(), score: mean(&scores) }
        })
        .collect()
}

/// One model's value head per bucket (parallel to [`buckets`]; `None` where a bucket has no
/// positions).
#[derive(Clone, Debug, PartialEq)]
pub struct ModelValues {
    /// The checkpoint, as named on the command line.
    pub model: String,
    /// The mean expected score for the mover: its win probability plus the draw probability
    /// over the number of seats.
    pub expected: Vec<Option<f64>>,
    /// The mean of win / (win + loss) for the mover (the draw class left out).
    pub decisive: Vec<Option<f64>>,
    /// The mean draw probability.
    pub draw: Vec<Option<f64>>,
    /// The mean draw probability on the positions [`FAR_MOVES`] or more from the end of a game
    /// that was not drawn (`None` without any).
    pub far_draw: Option<f64>,
}

/// The value head of `evaluator` on every position, by bucket. `evaluator` must score a draw at
/// 0 for every seat (`DrawScore::Fixed(0.0)`), so that a seat's value is its win probability
/// and the draw probability is what the seats' values leave of 1.
pub fn model_values<V: Variant, E: Evaluator<State<V>> + ?Sized>(
    model: &str,
    positions: &[ProbePosition<V>],
    evaluator: &mut E,
) -> ModelValues {
    let n = V::NUM_PLAYERS;
    let mut per_position = Vec::with_capacity(positions.len());
    for batch in positions.chunks(BATCH) {
        let states: Vec<State<V>> = batch.iter().map(|p| p.state.clone()).collect();
        for (p, eval) in batch.iter().zip(evaluator.evaluate(&states)) {
            let mover: Player = p.state.to_move();
            let wins: f64 = eval.values.0[..n].iter().map(|&v| f64::from(v)).sum();
            let win = f64::from(eval.values.0[mover.index()]);
            let draw = (1.0 - wins).clamp(0.0, 1.0);
            let loss = (1.0 - win - draw).max(0.0);
            let decisive = if win + loss > 0.0 { win / (win + loss) } else { 0.5 };
            per_position.push((win + draw / n as f64, decisive, draw));
        }
    }
    let per_bucket = |pick: fn(&(f64, f64, f64)) -> f64| -> Vec<Option<f64>> {
        (-MAX_BALANCE..=MAX_BALANCE)
            .map(|b| {
                let xs: Vec<f64> = positions
                    .iter()
                    .zip(&per_position)
                    .filter(|(p, _)| p.balance == b)
                    .map(|(_, x)| pick(x))
                    .collect();
                (!xs.is_empty()).then(|| mean(&xs))
            })
            .collect()
    };
    let fair = 1.0 / n as f32;
    let far: Vec<f64> = positions
        .iter()
        .zip(&per_position)
        .filter(|(p, _)| p.moves_to_end >= FAR_MOVES && (p.score - fair).abs() > 1e-6)
        .map(|(_, x)| x.2)
        .collect();
    ModelValues {
        model: model.to_string(),
        expected: per_bucket(|x| x.0),
        decisive: per_bucket(|x| x.1),
        draw: per_bucket(|x| x.2),
        far_draw: (!far.is_empty()).then(|| mean(&far)),
    }
}

/// What `stats values` reports.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueProbe {
    pub variant: &'static str,
    pub games: usize,
    pub buckets: Vec<Bucket>,
    pub models: Vec<ModelValues>,
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() { 0.0 } else { xs.iter().sum::<f64>() / xs.len() as f64 }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use games::{Camelot, CamelotRules, Termination, Values};

    use super::*;
    use records::GameRecord;
    use search::Evaluation;

    /// White: a Knight and two Men; Black: a Knight and a Man. White to move.
    const WHITE_UP: &str = "camelot W W:KA4,ME4,MF4 B:KA13,ML13 cm=0,0";

    fn game(start: &str, moves: &[&str], result: [f32; 2]) -> SourcedGame {
        let record = GameRecord {
            run: "test".into(),
            generation: 0,
            game_id: 1,
            variant: "camelot".into(),
            seed: 0,
            start_position: start.into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            result: result.to_vec(),
            termination: Termination::MoveLimit,
            plies: moves.len() as u32,
            model: "test".into(),
        };
        SourcedGame { file: PathBuf::from("games-000000.parquet"), record }
    }

    /// Values by material: the side with more pieces wins with probability 0.8, a draw 0.1.
    struct ByMaterial;

    impl Evaluator<Camelot> for ByMaterial {
        fn evaluate(&mut self, states: &[Camelot]) -> Vec<Evaluation> {
            states
                .iter()
                .map(|s| {
                    let mut legal = Vec::new();
                    s.legal_actions(&mut legal);
                    let mut e = Evaluation::uniform(legal.len(), 2);
                    let up = material_balance(s) > 0.0;
                    let mover = s.to_move().index();
                    let mut v = [0.0; games::MAX_PLAYERS];
                    v[mover] = if up { 0.8 } else { 0.1 };
                    v[1 - mover] = if up { 0.1 } else { 0.8 };
                    e.values = Values(v);
                    e
                })
                .collect()
        }
    }

    #[test]
    fn the_balance_counts_knights_as_more_than_men() {
        let s: Camelot = WHITE_UP.parse().unwrap();
        assert!((material_balance(&s) - 1.0).abs() < 1e-6);
        let s: Camelot = "camelot B W:KA4,ME4,MF4 B:KA13,KL13 cm=0,0".parse().unwrap();
        // Black to move: 2.8 against 3.4.
        assert!((material_balance(&s) + 0.6).abs() < 1e-5);
        assert_eq!(bucket(-0.6), -1);
        assert_eq!(bucket(9.0), MAX_BALANCE);
        assert_eq!(bucket(-9.0), -MAX_BALANCE);
    }

    #[test]
    fn positions_carry_the_movers_score_and_bucket() {
        let games = [game(WHITE_UP, &["E4-E5", "L13-L12"], [1.0, 0.0])];
        let positions = probe_positions::<CamelotRules>(&games).unwrap();
        assert_eq!(positions.len(), 2);
        assert_eq!(
            (positions[0].balance, positions[0].score, positions[0].moves_to_end),
            (1, 1.0, 2)
        );
        assert_eq!(
            (positions[1].balance, positions[1].score, positions[1].moves_to_end),
            (-1, 0.0, 1)
        );
        let b = buckets(&positions);
        assert_eq!(b.len(), 9);
        let at = |k: i32| &b[(k + MAX_BALANCE) as usize];
        assert_eq!((at(1).positions, at(1).score), (1, 1.0));
        assert_eq!((at(-1).positions, at(-1).score), (1, 0.0));
        assert_eq!(at(0).positions, 0);
    }

    #[test]
    fn the_model_figures_split_win_draw_and_loss() {
        let games = [game(WHITE_UP, &["E4-E5", "L13-L12"], [1.0, 0.0])];
        let positions = probe_positions::<CamelotRules>(&games).unwrap();
        let m = model_values("bym", &positions, &mut ByMaterial);
        let at = |v: &Vec<Option<f64>>, k: i32| v[(k + MAX_BALANCE) as usize];
        // Up: win 0.8, draw 0.1 → 0.85 expected; 0.8 / 0.9 decisive.
        assert!((at(&m.expected, 1).unwrap() - 0.85).abs() < 1e-6, "{m:?}");
        assert!((at(&m.decisive, 1).unwrap() - 0.8 / 0.9).abs() < 1e-6);
        assert!((at(&m.draw, 1).unwrap() - 0.1).abs() < 1e-6);
        assert!((at(&m.expected, -1).unwrap() - 0.15).abs() < 1e-6);
        assert_eq!(at(&m.expected, 0), None);
        // Both positions are under 16 moves from the end.
        assert_eq!(m.far_draw, None);
    }

    #[test]
    fn a_game_that_does_not_replay_is_named() {
        let games = [game(WHITE_UP, &["E4-E5", "A1-A2"], [1.0, 0.0])];
        let e = probe_positions::<CamelotRules>(&games).unwrap_err();
        assert!(e.to_string().contains("move 2 `A1-A2`"), "{e}");
    }
}
