//! The driver on real games with evaluators that need no network.

use std::sync::atomic::AtomicBool;

use games::toy::TicTacToe;
use games::{Camelot, CamelotPosition, Game, Position, State, TriCamelot, Values, Variant};

use super::*;
use records::PositionRow;
use search::TacticsFilter;
use search::evaluator::{Evaluation, UniformEvaluator};
use search::mcts::{MctsConfig, RootFilter, RootNoise, Selection, TemperatureSchedule};
use search::testing::{ClearAction, FnEvaluator};

fn mcts(simulations: u32) -> MctsConfig {
    MctsConfig {
        simulations,
        temperature: TemperatureSchedule::Step { initial: 1.0, moves: 8, after: 0.0 },
        root_noise: RootNoise::Dirichlet { alpha: 0.3, fraction: 0.25 },
        ..MctsConfig::default()
    }
}

/// Plays `games` games of `G` from its start with evaluators from `make`.
fn run<G: Game, E: Evaluator<G>>(
    config: &SelfPlayConfig,
    mcts: &MctsConfig,
    games: u64,
    seed: u64,
    make: impl Fn(usize) -> E + Sync,
) -> (Vec<PlayedGame>, SelfPlayStats) {
    let start = |_: u64| G::initial();
    run_session(&Session::new(config, mcts, (0..games).collect(), seed, &start), make)
}

/// Plays `session` with evaluators from `make`: its games in id order, and the totals.
fn run_session<G: Game, E: Evaluator<G>>(
    session: &Session<'_, G>,
    make: impl Fn(usize) -> E + Sync,
) -> (Vec<PlayedGame>, SelfPlayStats) {
    let mut out = Vec::new();
    let stats = play(
        session,
        &make,
        |g, _| {
            out.push(g);
            Ok(())
        },
        |_| {},
    )
    .unwrap();
    out.sort_by_key(|g| g.game.game_id);
    (out, stats)
}

/// The error of a tic-tac-toe session of `config` refused before its one game starts.
fn refusal(config: &SelfPlayConfig, mcts: &MctsConfig) -> String {
    let start = |_: u64| TicTacToe::initial();
    let session = Session::new(config, mcts, vec![0], 0, &start);
    let err = play(&session, &|_| UniformEvaluator, |_, _| Ok(()), |_| {}).unwrap_err();
    err.to_string()
}

/// Replays a game's moves through the rules engine from its start position, checking each
/// decision's position on the way, and returns the final position.
fn replay<V: Variant>(g: &PlayedGame) -> Position<V> {
    let mut pos: Position<V> = g.game.start_position.parse().unwrap();
    for m in &g.game.moves {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e} in {pos}"));
        pos.play(&mv);
    }
    for d in &g.positions {
        assert_eq!((d.game_id, &d.result), (g.game.game_id, &g.game.result));
        let state: State<V> = d.position.parse().unwrap();
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        assert!(legal.len() >= 2, "forced legs are not searched: {}", d.position);
        let mut indices: Vec<u16> = legal.iter().map(|&a| state.action_index(a) as u16).collect();
        indices.sort();
        let mut got = d.policy_actions.clone();
        got.sort();
        assert_eq!(got, indices, "the policy covers exactly the legal actions");
        let sum: f32 = d.policy_target.iter().sum();
        assert!((sum - 1.0).abs() < 1e-4);
        assert_eq!(d.mover, state.to_move().0);
    }
    pos
}

#[test]
fn camelot_and_tricamelot_games_replay_through_the_rules() {
    let config = SelfPlayConfig { games_in_flight: 3, max_moves: 40, ..SelfPlayConfig::default() };
    let (games, stats) = run::<Camelot, _>(&config, &mcts(8), 3, 1, |_| UniformEvaluator);
    assert_eq!(stats.games, 3);
    for g in &games {
        let end: CamelotPosition = replay(g);
        match g.game.termination {
            games::Termination::MoveLimit => assert_eq!(g.game.moves.len(), 40),
            _ => assert!(end.outcome().is_some()),
        }
        assert!(!g.positions.is_empty());
    }
    let (games, _) = run::<TriCamelot, _>(&config, &mcts(8), 3, 2, |_| UniformEvaluator);
    for g in &games {
        let _: games::TriCamelotPosition = replay(g);
        assert_eq!(g.game.result.iter().sum::<f32>(), 1.0);
    }
}

#[test]
fn the_same_seed_gives_the_same_games() {
    let config = SelfPlayConfig {
        games_in_flight: 4,
        max_moves: 25,
        workers: 2,
        ..SelfPlayConfig::default()
    };
    let a = run::<Camelot, _>(&config, &mcts(6), 6, 7, |_| UniformEvaluator).0;
    let b = run::<Camelot, _>(&config, &mcts(6), 6, 7, |_| UniformEvaluator).0;
    assert_eq!(a, b);
    let c = run::<Camelot, _>(&config, &mcts(6), 6, 8, |_| UniformEvaluator).0;
    assert_ne!(a, c, "another seed gives other games");
}

#[test]
fn playout_cap_randomization_marks_fast_decisions() {
    let config = SelfPlayConfig {
        games_in_flight: 4,
        max_moves: 30,
        playout_cap: PlayoutCap::Randomized { full_fraction: 0.25, fast_simulations: 2 },
        ..SelfPlayConfig::default()
    };
    let (games, _) = run::<Camelot, _>(&config, &mcts(8), 4, 3, |_| UniformEvaluator);
    let decisions: Vec<&PositionRow> = games.iter().flat_map(|g| &g.positions).collect();
    let full = decisions.iter().filter(|d| d.full_search).count() as f64 / decisions.len() as f64;
    assert!(decisions.len() > 100 && (0.15..0.35).contains(&full), "{full} of {}", decisions.len());
}

/// An evaluator that thinks White (seat 0) is lost everywhere.
fn pessimist(_: usize) -> FnEvaluator<impl FnMut(&Camelot) -> Evaluation> {
    FnEvaluator(|s: &Camelot| {
        let mut legal = Vec::new();
        s.legal_actions(&mut legal);
        Evaluation {
            policy: vec![1.0 / legal.len() as f32; legal.len()],
            values: Values([0.01, 0.99, 0.0]),
            moves_left: None,
        }
    })
}

#[test]
fn resignation_and_playthrough() {
    let resign = Resign::Threshold { value: 0.05, min_moves: 2, playthrough_fraction: 0.0 };
    let config =
        SelfPlayConfig { games_in_flight: 2, max_moves: 30, resign, ..SelfPlayConfig::default() };
    let (games, stats) = run::<Camelot, _>(&config, &mcts(4), 2, 1, pessimist);
    for g in &games {
        assert_eq!(g.game.termination, games::Termination::Resign);
        assert_eq!(g.game.moves.len(), 2, "White resigns at its first decision after 2 moves");
        assert_eq!(g.game.result, [0.0, 1.0]);
    }
    assert_eq!(stats.wins[1], 2);
    let resign = Resign::Threshold { value: 0.05, min_moves: 2, playthrough_fraction: 1.0 };
    let config = SelfPlayConfig { resign, ..config };
    let (games, stats) = run::<Camelot, _>(&config, &mcts(4), 2, 1, pessimist);
    for g in &games {
        assert_ne!(g.game.termination, games::Termination::Resign);
        assert_eq!(g.would_have_resigned.map(|(p, n)| (p.0, n)), Some((0, 2)));
    }
    assert_eq!(stats.resign_checks, 2);
    let three = SelfPlayConfig { resign, ..SelfPlayConfig::default() };
    assert!(three.validate(3).is_err(), "resignation is for 2 players");
}

/// `move_limit = { material = .. }`: a capped game goes to the player clearly ahead in pieces,
/// recomputed here by replaying the recorded moves; the others stay draws.
#[test]
fn material_adjudication_scores_capped_games_by_pieces() {
    let margin = 2;
    let config = SelfPlayConfig {
        games_in_flight: 4,
        max_moves: 40,
        move_limit: MoveLimit::Material { margin },
        ..SelfPlayConfig::default()
    };
    let (games, stats) = run::<Camelot, _>(&config, &mcts(4), 8, 3, |_| UniformEvaluator);
    let mut decisive = 0;
    for g in &games {
        assert_eq!(g.game.termination, games::Termination::MoveLimit, "40 moves end no game here");
        let mut pos: CamelotPosition = g.game.start_position.parse().unwrap();
        for m in &g.game.moves {
            let m = pos.parse_move(m).unwrap();
            pos.play(&m);
        }
        let [w, b] = [0, 1].map(|p| pos.board().count(games::Player(p)) as u32);
        let expected = if w >= b + margin {
            Values([1.0, 0.0, 0.0])
        } else if b >= w + margin {
            Values([0.0, 1.0, 0.0])
        } else {
            search::draw_values(2)
        };
        assert_eq!(g.game.result, expected.0[..2], "{} vs {} pieces", w, b);
        decisive += (expected != search::draw_values(2)) as u64;
    }
    assert!(decisive > 0, "captures are compulsory: some game must be {margin} pieces apart");
    assert_eq!(stats.wins.iter().sum::<u64>(), decisive);
    assert_eq!(stats.draws, games.len() as u64 - decisive);

    let zero = SelfPlayConfig { move_limit: MoveLimit::Material { margin: 0 }, ..config };
    assert!(zero.validate(2).is_err());
}

#[test]
fn move_limit_is_a_draw_and_stop_starts_no_new_games() {
    let config = SelfPlayConfig { games_in_flight: 2, max_moves: 3, ..SelfPlayConfig::default() };
    let (games, stats) = run::<TriCamelot, _>(&config, &mcts(4), 2, 1, |_| UniformEvaluator);
    for g in &games {
        assert_eq!(g.game.termination, games::Termination::MoveLimit);
        assert_eq!(g.game.moves.len(), 3);
        assert_eq!(g.game.result, search::draw_values(3).0[..3]);
    }
    assert_eq!(stats.draws, 2);

    let stop = AtomicBool::new(true);
    let start = |_: u64| Camelot::initial();
    let mcts = mcts(4);
    let session =
        Session { stop: Some(&stop), ..Session::new(&config, &mcts, (0..5).collect(), 0, &start) };
    let stats = play(&session, &|_| UniformEvaluator, |_, _| Ok(()), |_| {}).unwrap();
    assert_eq!(stats.games, 0);
}

#[test]
fn a_failing_game_handler_stops_the_session_with_its_message() {
    let config = SelfPlayConfig { games_in_flight: 1, max_moves: 2, ..SelfPlayConfig::default() };
    let start = |_: u64| Camelot::initial();
    let mcts = mcts(2);
    let session = Session::new(&config, &mcts, (0..4).collect(), 0, &start);
    let err =
        play(&session, &|_| UniformEvaluator, |_, _| Err("disk full".into()), |_| {}).unwrap_err();
    assert_eq!(err.to_string(), "disk full");
}

/// The same check with a network at random weights (the evaluator self-play really uses).
#[cfg(feature = "net")]
#[test]
fn games_with_a_random_network_replay_through_the_rules() {
    use games::Encoding::Tactical;
    use model::DeviceKind::Cpu;
    use search::net::NetEvaluator;
    let config = SelfPlayConfig { games_in_flight: 2, max_moves: 20, ..SelfPlayConfig::default() };
    let net = |_: usize| NetEvaluator::<Camelot>::random("b4c32", Tactical, Cpu, 3).unwrap();
    let (games, stats) = run::<Camelot, _>(&config, &mcts(8), 2, 1, net);
    assert_eq!(stats.games, 2);
    for g in &games {
        let _: CamelotPosition = replay(g);
    }
    let net = |_: usize| NetEvaluator::<TriCamelot>::random("b4c32", Tactical, Cpu, 3).unwrap();
    let (games, _) = run::<TriCamelot, _>(&config, &mcts(8), 2, 1, net);
    for g in &games {
        let _: games::TriCamelotPosition = replay(g);
        assert!(g.positions.iter().any(|d| d.net_values != draw_values_for(3).0[..3]));
    }
}

#[cfg(feature = "net")]
fn draw_values_for(n: usize) -> Values {
    search::draw_values(n)
}

#[test]
fn endgame_starts_are_recorded_and_replay_through_the_rules() {
    let config = SelfPlayConfig {
        games_in_flight: 4,
        max_moves: 40,
        start: Start::Endgames { fraction: 0.5, min_pieces: 1, max_pieces: 4 },
        ..SelfPlayConfig::default()
    };
    let (games, stats) = run::<Camelot, _>(&config, &mcts(4), 16, 5, |_| UniformEvaluator);
    assert_eq!(stats.games, 16);
    let standard = Camelot::initial().to_string();
    let sparse: Vec<&PlayedGame> =
        games.iter().filter(|g| g.game.start_position != standard).collect();
    assert!((3..=13).contains(&sparse.len()), "{} endgame starts of 16", sparse.len());
    for g in &games {
        let end: CamelotPosition = replay(g);
        assert_eq!(end.outcome().is_some(), g.game.termination != games::Termination::MoveLimit);
    }
    for g in sparse {
        let start: CamelotPosition = g.game.start_position.parse().unwrap();
        let pieces = (0..2).map(|p| start.board().count(games::Player(p))).collect::<Vec<_>>();
        assert!(pieces.iter().all(|n| (1..=4).contains(n)), "{}", g.game.start_position);
    }
    // Same seed, same games: the start is drawn from each game's own stream.
    let (again, _) = run::<Camelot, _>(&config, &mcts(4), 16, 5, |_| UniformEvaluator);
    let starts =
        |gs: &[PlayedGame]| gs.iter().map(|g| g.game.start_position.clone()).collect::<Vec<_>>();
    assert_eq!(starts(&games), starts(&again));

    // A game without random endgames is refused before any game starts.
    let err = refusal(&config, &mcts(2));
    assert!(err.starts_with("selfplay.start: tictactoe has no"), "{err}");
}

#[test]
fn a_root_filter_keeps_cleared_actions_out_of_the_targets_and_the_moves_played() {
    // Gumbel sampling at every decision: with a uniform prior the centre is one of four
    // considered actions, so without the filter some games take it.
    let mcts = MctsConfig {
        simulations: 16,
        selection: Selection::gumbel(4),
        temperature: TemperatureSchedule::Constant(1.0),
        ..MctsConfig::default()
    };
    let config = SelfPlayConfig { games_in_flight: 4, ..SelfPlayConfig::default() };
    let centre_taken = |games: &[PlayedGame]| {
        games.iter().flat_map(|g| &g.positions).filter(|r| r.position.as_bytes()[5] != b'.').count()
    };
    let (plain, _) = run::<TicTacToe, _>(&config, &mcts, 12, 3, |_| UniformEvaluator);
    assert!(centre_taken(&plain) > 0, "the test needs games that take the centre");

    // Clears the centre (action 4) wherever it is legal beside other cells.
    let make = || -> Box<dyn RootFilter<TicTacToe>> { Box::new(ClearAction::new(Some(4u8))) };
    let start = |_: u64| TicTacToe::initial();
    let session = Session {
        root_filter: Some(&make),
        ..Session::new(&config, &mcts, (0..12).collect(), 3, &start)
    };
    let (filtered, stats) = run_session(&session, |_| UniformEvaluator);
    assert_eq!(stats.games, 12);
    // Roots evaluated fresh and roots kept from the search before (filtered after `advance`)
    // alike: the centre is taken only as the last empty cell, which ends the game.
    assert_eq!(centre_taken(&filtered), 0, "no move played takes the centre");
    for row in filtered.iter().flat_map(|g| &g.positions) {
        if let Some(i) = row.policy_actions.iter().position(|&a| a == 4) {
            assert!(row.policy_target[i] < 1e-6, "{}: {:?}", row.position, row.policy_target);
        }
    }
    // A config with the filter on and a session without one to apply is refused.
    let on = TacticsFilter::AlphaBeta { depth: 1, margin: 100 };
    let err = refusal(&SelfPlayConfig { root_filter: on, ..config }, &mcts);
    assert!(err.starts_with("selfplay.root_filter: is set, but"), "{err}");
}

/// A sparring partner at seat 1 of tic-tac-toe that takes the lowest legal action, its row's
/// target that action.
struct Lowest;

impl Sparrer<TicTacToe> for Lowest {
    fn seat(&self) -> games::Player {
        games::Player(1)
    }

    fn name(&self) -> String {
        "lowest".into()
    }

    fn choose(&mut self, state: &TicTacToe) -> SparMove<<TicTacToe as Game>::Action> {
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let a = *legal.iter().min_by_key(|&&a| state.action_index(a)).unwrap();
        let row = (legal.len() > 1).then(|| (vec![state.action_index(a) as u16], vec![1.0]));
        SparMove { legs: vec![(a, row)], values: vec![0.25, 0.75] }
    }
}

#[test]
fn a_sparring_partner_plays_its_seat_and_its_rows_are_its_targets() {
    let config = SelfPlayConfig { games_in_flight: 3, ..SelfPlayConfig::default() };
    let mcts = mcts(8);
    let start = |_: u64| TicTacToe::initial();
    // Games 1, 3, 5 and 7 spar; the others are the searches' alone.
    let make = |id: u64| -> Option<BoxedSparrer<TicTacToe>> {
        (id % 2 == 1).then(|| Box::new(Lowest) as BoxedSparrer<TicTacToe>)
    };
    let session = Session {
        sparring: Some(&make),
        ..Session::new(&config, &mcts, (0..8).collect(), 5, &start)
    };
    let (games, _) = run_session(&session, |_| UniformEvaluator);
    assert_eq!(games.len(), 8);
    let lowest = |state: &TicTacToe| {
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        *legal.iter().min_by_key(|&&a| state.action_index(a)).unwrap()
    };
    let mut searched_not_lowest = 0;
    for g in &games {
        let sparring = g.game.game_id % 2 == 1;
        let partner = sparring.then(|| (games::Player(1), "lowest".to_string()));
        assert_eq!(g.sparring, partner, "game {}", g.game.game_id);
        for (i, row) in g.positions.iter().enumerate() {
            let state = TicTacToe::parse(&row.position).unwrap();
            let seat_1 = state.to_move() == games::Player(1);
            if sparring && seat_1 {
                assert!(row.full_search, "{row:?}");
                assert_eq!(row.policy_actions, [state.action_index(lowest(&state)) as u16]);
                assert_eq!(row.policy_target, [1.0]);
                assert_eq!(row.root_values, [0.25, 0.75]);
                assert_eq!(row.net_values, [0.25, 0.75]);
            } else {
                assert!(row.policy_actions.len() > 1, "a search's row: {row:?}");
            }
            // The action played: the one that leads to the next row's position.
            let Some(next) = g.positions.get(i + 1).filter(|n| n.ply == row.ply + 1) else {
                continue;
            };
            let mut legal = Vec::new();
            state.legal_actions(&mut legal);
            let played = legal.iter().copied().find(|&a| {
                let mut after = state;
                after.play(a);
                after.to_string() == next.position
            });
            let played = played.expect("consecutive rows are one action apart");
            if sparring && seat_1 {
                assert_eq!(played, lowest(&state), "game {}", g.game.game_id);
            } else if seat_1 && played != lowest(&state) {
                searched_not_lowest += 1;
            }
        }
    }
    assert!(searched_not_lowest > 0, "the searches at seat 1 play otherwise");
}
