//! How often a model's prior, and its search, choose a move that a shallow alpha-beta search
//! shows to lose material: a fast figure of merit for the network's tactics.
//!
//! A model loses to `alphabeta:depth=2` by walking pieces into jumps its prior gives weight and
//! 16-64 simulations do not refute (see docs/experiments.md, "What the value head is worth to the
//! search"). An arena match measures that slowly and with a wide interval; this measures it
//! directly on a fixed set of positions. The positions are those of recorded games (the states
//! before each complete move) where the [`TacticsGuard`] (alpha-beta to `depth` plies and
//! quiescence) finds actions that lose `margin` or more against the best and actions that do
//! not: the *tactical positions*. Every model measured on one set is judged on the same
//! positions, so generations of a run compare side by side.

use classical::GuardedSearch;
use games::{State, Variant};
use rand::SeedableRng;
use rand::rngs::StdRng;

use super::refutation::{Discrimination, Line, Refutation, refutation_visits};
use super::tactical_set::mean;
pub use super::tactical_set::{TacticalPosition, TacticalSet, plays_seat, tactical_positions};
use search::Evaluator;
use search::mcts::{PlaySearch, SearchError, choose_action};

/// States evaluated per network call.
const BATCH: usize = 256;

/// How a model's prior treats a set's losing actions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PriorBlunders {
    /// The prior's mean mass on the losing actions.
    pub mass: f64,
    /// The share of positions whose most probable action loses.
    pub top: f64,
}

/// The prior of `evaluator` on every position of `set` (in batches of 256).
pub fn prior_blunders<V: Variant, E: Evaluator<State<V>> + ?Sized>(
    set: &TacticalSet<V>,
    evaluator: &mut E,
) -> PriorBlunders {
    let (mut masses, mut tops) = (Vec::new(), Vec::new());
    for batch in set.positions.chunks(BATCH) {
        let states: Vec<State<V>> = batch.iter().map(|p| p.state.clone()).collect();
        for (p, eval) in batch.iter().zip(evaluator.evaluate(&states)) {
            let on_losing = p.losing.iter().zip(&eval.policy).filter(|(l, _)| **l);
            masses.push(on_losing.map(|(_, &q)| f64::from(q)).sum::<f64>());
            let top =
                (0..eval.policy.len()).max_by(|&a, &b| eval.policy[a].total_cmp(&eval.policy[b]));
            tops.push(if top.is_some_and(|i| p.losing[i]) { 1.0 } else { 0.0 });
        }
    }
    PriorBlunders { mass: mean(masses.into_iter()), top: mean(tops.into_iter()) }
}

/// What a model's search chooses on a [`TacticalSet`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchBlunders {
    /// Simulations of each search.
    pub simulations: u32,
    /// The share of positions where the search chooses a losing first leg.
    pub losing: f64,
    /// `losing` split by the class of the chosen leg's refutation, in [`Refutation::ALL`]'s
    /// order (the three sum to `losing`).
    pub by_class: [f64; 3],
    /// The share of positions where the chosen leg loses and the search gave its refutation no
    /// visit ([`refutation_visits`]).
    pub unvisited: f64,
}

/// What `play`'s search of `simulations` with `evaluator` chooses (at temperature 0, as a
/// playing model) on every position of `set`; `lines` are the set's [`refutations`]. `tick` is
/// called after each position.
pub fn search_blunders<V: Variant, E: Evaluator<State<V>> + ?Sized>(
    set: &TacticalSet<V>,
    lines: &[Vec<Option<Line>>],
    play: &PlaySearch,
    simulations: u32,
    evaluator: &mut E,
    mut tick: impl FnMut(),
) -> Result<SearchBlunders, SearchError> {
    let mut rng = StdRng::seed_from_u64(0);
    let (mut losing, mut by_class, mut unvisited) = (0usize, [0usize; 3], 0usize);
    for (p, lines) in set.positions.iter().zip(lines) {
        let mut search = play.search(p.state.clone(), simulations)?;
        let summary = search.run(evaluator, &mut rng)?;
        let chosen = choose_action(&summary, 0.0, &mut rng).ok_or(SearchError::GameOver)?;
        let i = p.legal.iter().position(|&a| a == chosen).ok_or(SearchError::GameOver)?;
        if p.losing[i] {
            losing += 1;
            if let Some(line) = &lines[i] {
                let class = Refutation::ALL.iter().position(|&c| c == line.refutation);
                by_class[class.unwrap_or(2)] += 1;
                if refutation_visits(&search, line) == 0 {
                    unvisited += 1;
                }
            }
        }
        tick();
    }
    let share = |k: usize| k as f64 / set.positions.len().max(1) as f64;
    Ok(SearchBlunders {
        simulations,
        losing: share(losing),
        by_class: by_class.map(share),
        unvisited: share(unvisited),
    })
}

/// One model's figures on a [`TacticalSet`].
#[derive(Clone, Debug, PartialEq)]
pub struct ModelBlunders {
    /// The checkpoint, as named on the command line.
    pub model: String,
    pub prior: PriorBlunders,
    /// The value head's discrimination of losing legs from safe ones.
    pub discrimination: Discrimination,
    /// Its searches' choices, when the positions were searched.
    pub search: Option<SearchBlunders>,
}

/// What `stats blunders` reports: the set's description and each model's figures on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Blunders {
    pub variant: &'static str,
    /// The judge: alpha-beta depth and margin (hundredths of a Man).
    pub depth: u32,
    pub margin: i32,
    /// Tactical positions measured on, positions judged to find them, and candidates in all.
    pub positions: usize,
    pub judged: usize,
    pub candidates: usize,
    /// A uniform prior's mass on the losing actions ([`TacticalSet::uniform_mass`]).
    pub uniform_mass: f64,
    /// The player whose positions alone were judged, when one was named.
    pub mover: Option<String>,
    pub models: Vec<ModelBlunders>,
}

#[cfg(test)]
pub(super) mod tests {
    use std::path::PathBuf;

    use games::{Camelot, CamelotRules, Game, Termination, Values};
    use records::collection::SourcedGame;
    use search::TacticsFilter;

    use super::*;
    use crate::stats::refutation::refutations;
    use records::GameRecord;
    use search::Evaluation;
    use search::testing::FnEvaluator;

    pub(in crate::stats) const FILTER: TacticsFilter =
        TacticsFilter::AlphaBeta { depth: 1, margin: 100 };

    /// White's Man on F7 faces Black's Man on F9 across an empty F8: F7>F8 is jumped (F9xF7),
    /// F7>E7 is safe (the tactics filter's own test position).
    const JUMPABLE: &str = "camelot W W:KA4,ME4,MF7 B:KA13,MF9,ML13 cm=0,0";
    /// Nothing can be taken or lost in one move.
    const QUIET: &str = "camelot W W:KA4,ME4 B:KA13,ML13 cm=0,0";

    pub(in crate::stats) fn game(id: u64, start: &str, moves: &[&str]) -> SourcedGame {
        let record = GameRecord {
            run: "test".into(),
            generation: 0,
            game_id: id,
            variant: "camelot".into(),
            seed: 0,
            start_position: start.into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            result: vec![0.5, 0.5],
            termination: Termination::MoveLimit,
            plies: moves.len() as u32,
            model: "test".into(),
        };
        SourcedGame { file: PathBuf::from("games-000000.parquet"), record }
    }

    /// Puts the whole prior on one leg (uniform where it is not legal); draw values.
    pub(in crate::stats) fn pointing(
        leg: &'static str,
    ) -> FnEvaluator<impl FnMut(&Camelot) -> Evaluation> {
        FnEvaluator(move |s: &Camelot| {
            let mut legal = Vec::new();
            s.legal_actions(&mut legal);
            let mut e = Evaluation::uniform(legal.len(), 2);
            if let Some(i) =
                s.parse_action(leg).ok().and_then(|a| legal.iter().position(|&b| b == a))
            {
                e.policy.iter_mut().enumerate().for_each(|(j, p)| *p = f32::from(u8::from(i == j)));
            }
            e.values = Values([0.5, 0.5, 0.0]);
            e
        })
    }

    fn jumpable_set() -> TacticalSet<CamelotRules> {
        let games = [game(1, JUMPABLE, &["E4-E5"]), game(2, QUIET, &["E4-E5"])];
        tactical_positions::<CamelotRules>(&games, FILTER, 10, 0, None).unwrap()
    }

    #[test]
    fn only_positions_with_losing_and_safe_actions_are_kept() {
        let set = jumpable_set();
        assert_eq!((set.positions.len(), set.judged, set.candidates), (1, 2, 2));
        let p = &set.positions[0];
        assert_eq!(p.state.to_string(), JUMPABLE);
        let verdict = |leg: &str| {
            let a = p.state.parse_action(leg).unwrap();
            p.losing[p.legal.iter().position(|&b| b == a).unwrap()]
        };
        assert!(verdict("F7>F8"));
        assert!(!verdict("F7>E7"));
        let share = set.uniform_mass();
        assert!(share > 0.0 && share < 0.5, "{share}");
        // The limit stops the search for more.
        let games: Vec<SourcedGame> = (0..5).map(|i| game(i, JUMPABLE, &["E4-E5"])).collect();
        let set = tactical_positions::<CamelotRules>(&games, FILTER, 2, 0, None).unwrap();
        assert_eq!((set.positions.len(), set.candidates), (2, 5));
    }

    #[test]
    fn a_mover_keeps_only_the_positions_where_that_player_is_to_move() {
        assert!(plays_seat("gen-0044:sims=64 vs alphabeta:depth=2", 0, "gen-0044:sims=64"));
        assert!(plays_seat("gen-0044:sims=64 vs alphabeta:depth=2", 0, "gen-0044"));
        assert!(!plays_seat("gen-0044:sims=64 vs alphabeta:depth=2", 1, "gen-0044"));
        assert!(plays_seat("gen-0043", 1, "gen-0043"));
        assert!(!plays_seat("gen-0043", 1, "gen-0004"));
        // White (the test player) to move in JUMPABLE; after E4-E5, Black to move, whose F9>F8
        // walks into F7xF9: a tactical position of the other player.
        let mut g = game(1, JUMPABLE, &["E4-E5", "L13-L12"]);
        g.record.model = "white vs black".into();
        let games = [g];
        let all = tactical_positions::<CamelotRules>(&games, FILTER, 10, 0, None).unwrap();
        assert_eq!(all.candidates, 2);
        for (mover, seat) in [("white", 0), ("black", 1)] {
            let set =
                tactical_positions::<CamelotRules>(&games, FILTER, 10, 0, Some(mover)).unwrap();
            assert_eq!(set.candidates, 1, "{mover}");
            assert!(set.positions.iter().all(|p| p.state.to_move().index() == seat), "{mover}");
        }
        let none =
            tactical_positions::<CamelotRules>(&games, FILTER, 10, 0, Some("green")).unwrap();
        assert_eq!(none.candidates, 0);
    }

    #[test]
    fn the_prior_on_losing_actions_is_measured() {
        let set = jumpable_set();
        assert_eq!(
            prior_blunders(&set, &mut pointing("F7>F8")),
            PriorBlunders { mass: 1.0, top: 1.0 }
        );
        assert_eq!(
            prior_blunders(&set, &mut pointing("F7>E7")),
            PriorBlunders { mass: 0.0, top: 0.0 }
        );
        let uniform = prior_blunders(&set, &mut search::UniformEvaluator);
        assert!((uniform.mass - set.uniform_mass()).abs() < 1e-6, "{uniform:?}");
    }

    #[test]
    fn the_search_follows_its_prior_into_a_loss_unless_its_tactics_filter_stops_it() {
        let set = jumpable_set();
        let lines = refutations(&set, FILTER);
        let plain = PlaySearch::default();
        let found =
            search_blunders(&set, &lines, &plain, 16, &mut pointing("F7>F8"), || {}).unwrap();
        // F9xF7 is compulsory: the search passes through it and sees the loss, but the prior's
        // visits still choose F7>F8.
        let expected = SearchBlunders {
            simulations: 16,
            losing: 1.0,
            by_class: [0.0, 1.0, 0.0],
            unvisited: 0.0,
        };
        assert_eq!(found, expected);
        let guarded = PlaySearch { tactics_filter: FILTER, ..Default::default() };
        let found =
            search_blunders(&set, &lines, &guarded, 16, &mut pointing("F7>F8"), || {}).unwrap();
        assert_eq!((found.losing, found.by_class), (0.0, [0.0; 3]));
    }

    #[test]
    fn a_game_that_does_not_replay_is_named() {
        let games = [game(7, JUMPABLE, &["E4-E5", "A1-A2"])];
        let e = tactical_positions::<CamelotRules>(&games, FILTER, 10, 0, None).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("game 7") && text.contains("move 2 `A1-A2`"), "{text}");
    }
}
