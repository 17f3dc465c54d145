//! Behaviour of whole searches on the toy games, where the right answer is known by hand
//! (mctx's bandit tests, KataGo's search tests without a net).

use games::toy::{Race3, RaceAction, TicTacToe};
use games::{Game, Player, Values};
use rand::SeedableRng;
use rand::rngs::StdRng;

use super::*;
use crate::evaluator::{Evaluation, Evaluator, RolloutEvaluator, UniformEvaluator, draw_values};
use crate::testing::{ClearAction, FnEvaluator, HashEvaluator};

pub(super) fn puct(simulations: u32) -> MctsConfig {
    MctsConfig { simulations, root_noise: RootNoise::None, ..MctsConfig::default() }
}

fn gumbel(simulations: u32) -> MctsConfig {
    MctsConfig { simulations, selection: Selection::gumbel(16), ..MctsConfig::default() }
}

fn search<G: Game>(
    state: G,
    config: MctsConfig,
    evaluator: &mut (impl Evaluator<G> + ?Sized),
    seed: u64,
) -> SearchSummary<G::Action> {
    let mut s = Search::new(state, config).unwrap();
    s.run(evaluator, &mut StdRng::seed_from_u64(seed)).unwrap()
}

pub(super) fn best<A: Copy>(summary: &SearchSummary<A>) -> A {
    let mut rng = StdRng::seed_from_u64(0);
    choose_action(summary, 0.0, &mut rng).unwrap()
}

pub(super) fn ttt(s: &str) -> TicTacToe {
    TicTacToe::parse(s).unwrap()
}

/// X to move wins at 5 (row 3-4-5), the third legal action.
const TTT_WIN: &str = "..O/XX./O..";
/// X to move must block O at 5, the third legal action.
const TTT_BLOCK: &str = "X../OO./X..";

#[test]
fn tictactoe_win_in_one_uniform_and_rollout() {
    let s = search(ttt(TTT_WIN), puct(200), &mut UniformEvaluator, 1);
    assert_eq!(best(&s), 5, "{s:?}");
    assert!(s.root_values.0[0] > 0.9, "{:?}", s.root_values);
    let s = search(ttt(TTT_WIN), puct(200), &mut RolloutEvaluator::new(4, 9, 1), 1);
    assert_eq!(best(&s), 5, "{s:?}");
}

#[test]
fn tictactoe_blocks_a_loss_in_one_uniform_and_rollout() {
    let s = search(ttt(TTT_BLOCK), puct(400), &mut UniformEvaluator, 1);
    assert_eq!(best(&s), 5, "{s:?}");
    // Every other move loses at once: their q for X goes to 0.
    for (a, q) in s.actions.iter().zip(&s.q) {
        if *a != 5 {
            assert!(q.unwrap_or(0.0) < 0.25, "action {a}: q {q:?}");
        }
    }
    let s = search(ttt(TTT_BLOCK), puct(400), &mut RolloutEvaluator::new(4, 9, 2), 1);
    assert_eq!(best(&s), 5, "{s:?}");
}

#[test]
fn the_value_backs_up_to_the_seat_that_wins() {
    // Seat 2 moves and wins by advancing: its root value goes to 1, the others' to 0.
    let state = Race3::new([0, 0, 4], Player(2)).unwrap();
    for evaluator in
        [&mut UniformEvaluator as &mut dyn Evaluator<Race3>, &mut HashEvaluator::default()]
    {
        let s = search(state, puct(200), evaluator, 3);
        assert_eq!(s.mover, Player(2));
        assert_eq!(best(&s), RaceAction::Advance);
        assert_eq!(s.q[0], Some(1.0), "q of advance for seat 2");
        assert!(s.root_values.0[2] > 0.9, "{:?}", s.root_values);
        assert!(s.root_values.0[0] < 0.05 && s.root_values.0[1] < 0.05, "{:?}", s.root_values);
    }
}

#[test]
fn values_are_not_flipped_between_two_actions_of_the_same_player() {
    // Seat 0 wins with advance, advance: two actions of one turn.
    let state = Race3::new([3, 0, 0], Player(0)).unwrap();
    let mut search = Search::new(state, puct(300)).unwrap();
    let mut rng = StdRng::seed_from_u64(4);
    let s = search.run(&mut UniformEvaluator, &mut rng).unwrap();
    assert_eq!(best(&s), RaceAction::Advance);
    assert!(s.q[0].unwrap() > 0.9, "{s:?}");
    search.advance(RaceAction::Advance).unwrap();
    assert_eq!(search.root_state().to_move(), Player(0), "same player again");
    let s = search.run(&mut UniformEvaluator, &mut rng).unwrap();
    assert_eq!(s.actions, vec![RaceAction::Advance, RaceAction::Stop]);
    assert_eq!(best(&s), RaceAction::Advance, "a flipped value would prefer stop: {s:?}");
    assert_eq!(s.q[0], Some(1.0));
    assert!(s.q[1].unwrap_or(0.0) < 0.5);
}

#[test]
fn three_players_block_the_next_seat() {
    // Seat 1 wins on its next turn unless seat 0 pushes it back now.
    let state = Race3::new([0, 4, 0], Player(0)).unwrap();
    let s = search(state, puct(800), &mut UniformEvaluator, 5);
    assert_eq!(best(&s), RaceAction::Push(1), "{s:?}");
    let s = search(state, puct(800), &mut RolloutEvaluator::new(2, 60, 5), 5);
    assert_eq!(best(&s), RaceAction::Push(1), "{s:?}");
}

#[test]
fn gumbel_finds_a_win_in_one_with_few_simulations() {
    for seed in 0..50 {
        let s = search(ttt(TTT_WIN), gumbel(8), &mut UniformEvaluator, seed);
        assert_eq!(s.simulations, 8);
        assert_eq!(best(&s), 5, "seed {seed}: {s:?}");
        // Three legal moves, four simulations, uneven priors (values say "draw": a value that
        // misjudges a losing move as nearly won can outweigh the win at 4 simulations).
        let mut hashed_priors = FnEvaluator(|s: &TicTacToe| Evaluation {
            values: draw_values(2),
            ..HashEvaluator { salt: seed }.evaluate(std::slice::from_ref(s)).remove(0)
        });
        let s = search(ttt("OX./OXX/..O"), gumbel(4), &mut hashed_priors, seed);
        assert_eq!(best(&s), 7, "seed {seed}: {s:?}");
        let s = search(
            Race3::new([0, 0, 4], Player(2)).unwrap(),
            gumbel(6),
            &mut UniformEvaluator,
            seed,
        );
        assert_eq!(best(&s), RaceAction::Advance, "seed {seed}: {s:?}");
    }
}

#[test]
fn gumbel_target_is_the_completed_q_policy() {
    let s = search(ttt(TTT_WIN), gumbel(16), &mut UniformEvaluator, 0);
    assert!((s.improved_policy.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    let win = s.actions.iter().position(|&a| a == 5).unwrap();
    assert!(s.improved_policy[win] > 0.99, "{:?}", s.improved_policy);
    assert_eq!(s.visits.iter().sum::<u32>(), 16);
    assert!(s.selected.is_some());
}

#[test]
fn root_noise_mixes_the_configured_fraction_into_full_searches_only() {
    let fraction = 0.4;
    let config = MctsConfig {
        simulations: 4,
        root_noise: RootNoise::Dirichlet { alpha: 0.5, fraction },
        ..MctsConfig::default()
    };
    let mut rng = StdRng::seed_from_u64(6);
    let mut mean_first = 0.0;
    let draws = 2000;
    for _ in 0..draws {
        let mut s = Search::new(TicTacToe::initial(), config.clone()).unwrap();
        let sum = s.run(&mut UniformEvaluator, &mut rng).unwrap();
        let noise: f32 = sum.priors.iter().map(|p| p - (1.0 - fraction) / 9.0).sum();
        assert!((noise - fraction).abs() < 1e-5);
        assert!(sum.priors.iter().all(|&p| p >= (1.0 - fraction) / 9.0 - 1e-6));
        mean_first += sum.priors[0] / draws as f32;
    }
    // E[prior'] = (1 - f) / 9 + f / 9 = 1 / 9 for a uniform prior.
    assert!((mean_first - 1.0 / 9.0).abs() < 0.01, "{mean_first}");
    assert!(
        (0..9).any(|_| {
            let mut s = Search::new(TicTacToe::initial(), config.clone()).unwrap();
            let p = s.run(&mut UniformEvaluator, &mut rng).unwrap().priors;
            p.iter().any(|&x| (x - 1.0 / 9.0).abs() > 1e-3)
        }),
        "noise changes the priors"
    );
    // A cheap search (playout cap randomization) is not noised and says so.
    let mut s = Search::new(TicTacToe::initial(), config).unwrap();
    s.set_budget(3, SearchKind::Fast);
    let sum = s.run(&mut UniformEvaluator, &mut rng).unwrap();
    assert_eq!((sum.kind, sum.simulations), (SearchKind::Fast, 3));
    assert!(sum.priors.iter().all(|&p| (p - 1.0 / 9.0).abs() < 1e-6));
}

#[test]
fn golden_tictactoe_summary() {
    // mctx's habit: a fixed-seed search whose visit counts are stored. A change here means the
    // search behaves differently; check it is intended before updating the numbers.
    let config = MctsConfig {
        simulations: 64,
        root_noise: RootNoise::Dirichlet { alpha: 0.3, fraction: 0.25 },
        ..MctsConfig::default()
    };
    let mut evaluator = RolloutEvaluator::new(4, 9, 7);
    let s = search(TicTacToe::initial(), config, &mut evaluator, 42);
    assert_eq!(s.actions, (0..9).collect::<Vec<u8>>());
    assert_eq!(s.visits, GOLDEN_VISITS, "{s:?}");
    assert_eq!(s.simulations, 64);
    assert_eq!(s.visits.iter().sum::<u32>(), 64);
}

const GOLDEN_VISITS: [u32; 9] = [4, 8, 2, 1, 31, 1, 8, 4, 5];

#[test]
fn tree_reuse_keeps_the_chosen_subtree() {
    let mut search = Search::new(TicTacToe::initial(), puct(100)).unwrap();
    let mut rng = StdRng::seed_from_u64(8);
    let s = search.run(&mut UniformEvaluator, &mut rng).unwrap();
    let a = best(&s);
    let i = s.actions.iter().position(|&x| x == a).unwrap();
    let child_visits = s.visits[i];
    search.advance(a).unwrap();
    assert_eq!(search.simulations_done(), 0);
    assert_eq!(search.tree().node(NodeId::ROOT).n, child_visits);
    let s = search.run(&mut UniformEvaluator, &mut rng).unwrap();
    assert_eq!(s.visits.iter().sum::<u32>(), child_visits - 1 + 100);
    assert_eq!(s.mover, Player(1));
    assert!(search.advance(a).is_err(), "the cell is taken now");
}

/// The root's children's priors, in child order.
fn root_priors(search: &Search<TicTacToe>) -> Vec<f32> {
    let tree = search.tree();
    tree.children(NodeId::ROOT).map(|c| tree.node(c).prior).collect()
}

#[test]
fn a_fresh_root_s_evaluation_is_filtered_and_inner_nodes_are_not() {
    let mut search = Search::new(TicTacToe::initial(), puct(24)).unwrap();
    search.set_root_filter(Box::new(ClearAction::new(Some(4u8))));
    let s = search.run(&mut UniformEvaluator, &mut StdRng::seed_from_u64(8)).unwrap();
    assert_eq!(s.actions[4], 4);
    assert_eq!(s.priors[4], 0.0, "{s:?}");
    assert!(s.priors.iter().enumerate().all(|(i, &p)| i == 4 || (p - 0.125).abs() < 1e-6));
    let tree = search.tree();
    let inner = tree
        .children(NodeId::ROOT)
        .find(|&c| tree.node(c).kind == NodeKind::Expanded)
        .expect("an expanded child");
    let centre = tree.children(inner).find(|&c| tree.node(c).action == Some(4)).unwrap();
    assert!((tree.node(centre).prior - 0.125).abs() < 1e-6, "only the root is filtered");
}

/// A 12-simulation tic-tac-toe search advanced by its best action, `filter` set only before
/// the advance (so that only the kept root is filtered).
fn advanced_with(filter: Option<ClearAction<u8>>) -> Search<TicTacToe> {
    let mut search = Search::new(TicTacToe::initial(), puct(12)).unwrap();
    let s = search.run(&mut UniformEvaluator, &mut StdRng::seed_from_u64(8)).unwrap();
    if let Some(filter) = filter {
        search.set_root_filter(Box::new(filter));
    }
    search.advance(best(&s)).unwrap();
    search
}

#[test]
fn a_kept_root_s_prior_is_filtered_and_a_visited_child_cleared_drops_the_tree() {
    let plain = advanced_with(None);
    let kept = plain.tree().node(NodeId::ROOT).n;
    let children: Vec<NodeId> = plain.tree().children(NodeId::ROOT).collect();
    let visits = |c: &NodeId| plain.tree().node(*c).n;
    let visited = children.iter().position(|c| visits(c) > 0).expect("a visited child");
    let unvisited = children.iter().position(|c| visits(c) == 0).expect("an unvisited child");
    let action = |i: usize| plain.tree().node(children[i]).action;

    // A filter that says it changed nothing is taken at its word.
    assert_eq!(root_priors(&advanced_with(Some(ClearAction::new(None)))), root_priors(&plain));

    let kept_tree = advanced_with(Some(ClearAction::new(action(unvisited))));
    assert_eq!(kept_tree.tree().node(NodeId::ROOT).n, kept, "the statistics stay");
    assert_eq!(root_priors(&kept_tree)[unvisited], 0.0);
    assert_ne!(root_priors(&plain)[unvisited], 0.0);
    assert!((root_priors(&kept_tree).iter().sum::<f32>() - 1.0).abs() < 1e-6);

    let mut afresh = advanced_with(Some(ClearAction::new(action(visited))));
    assert_eq!(afresh.tree().node(NodeId::ROOT).n, 0, "visits won under the old prior go");
    let leaf = afresh.gather(&mut StdRng::seed_from_u64(8)).expect("the root is evaluated again");
    assert!(leaf.is_root());
    let eval = UniformEvaluator.evaluate(std::slice::from_ref(&leaf.state)).remove(0);
    afresh.apply(leaf, eval).unwrap();
    assert_eq!(root_priors(&afresh)[visited], 0.0, "and its evaluation filtered");
}

#[test]
fn gather_and_apply_protocol() {
    let mut rng = StdRng::seed_from_u64(9);
    let mut s = Search::new(ttt(TTT_WIN), puct(30)).unwrap();
    assert_eq!(s.summary(), Err(SearchError::NotEvaluated));
    let leaf = s.gather(&mut rng).unwrap();
    assert_eq!(leaf.state, ttt(TTT_WIN));
    // Until applied, the same leaf comes back.
    let again = s.gather(&mut rng).unwrap();
    assert_eq!(again.state, leaf.state);
    let wrong = Evaluation { policy: vec![1.0], values: Values([0.5, 0.5, 0.0]), moves_left: None };
    assert_eq!(
        s.apply(leaf.clone(), wrong),
        Err(SearchError::PolicyLength { expected: 5, got: 1 })
    );
    let nan =
        Evaluation { policy: vec![f32::NAN; 5], values: Values([0.5, 0.5, 0.0]), moves_left: None };
    assert_eq!(s.apply(leaf.clone(), nan), Err(SearchError::BadEvaluation));
    // An unnormalised policy is renormalised.
    let eval =
        Evaluation { policy: vec![2.0; 5], values: Values([0.5, 0.5, 0.0]), moves_left: None };
    s.apply(leaf.clone(), eval.clone()).unwrap();
    assert_eq!(s.apply(again, eval), Err(SearchError::StaleLeaf));
    assert_eq!(s.simulations_done(), 0, "the root's own evaluation is not a simulation");
    assert!(s.summary().unwrap().priors.iter().all(|&p| (p - 0.2).abs() < 1e-6));
    // Simulations into the won game finish inside gather, with no leaf.
    let mut terminal_finishes = 0;
    while !s.is_done() {
        match s.gather(&mut rng) {
            Some(leaf) => {
                let e = UniformEvaluator.evaluate(std::slice::from_ref(&leaf.state)).remove(0);
                s.apply(leaf, e).unwrap();
            }
            None => terminal_finishes += 1,
        }
    }
    assert!(terminal_finishes > 0);
    assert_eq!(s.simulations_done(), 30);
    assert!(s.gather(&mut rng).is_none());
}

#[test]
fn a_sharp_prior_is_followed_and_values_stay_per_seat() {
    // An evaluator that loves cell 8 and says seat 1 is winning: the search follows the prior
    // and reports seat 1's value as seat 1's, from the root where seat 0 moves.
    let mut ev = FnEvaluator(|s: &TicTacToe| {
        let mut legal = Vec::new();
        s.legal_actions(&mut legal);
        let policy = legal.iter().map(|&a| if a == 8 { 0.92 } else { 0.01 }).collect();
        Evaluation { policy, values: Values([0.2, 0.8, 0.0]), moves_left: None }
    });
    let s = search(TicTacToe::initial(), puct(20), &mut ev, 0);
    assert_eq!(best(&s), 8);
    assert!((s.net_values.0[1] - 0.8).abs() < 1e-6);
    assert!((s.root_values.0[1] - 0.8).abs() < 1e-6, "{:?}", s.root_values);
}

/// Plays whole games with tree reuse, forced moves and cheap searches mixed in, as the driver
/// will, and returns the number of searched moves.
fn play_game<G: Game>(config: MctsConfig, seed: u64) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut evaluator = RolloutEvaluator::new(1, 200, seed);
    let mut search = Search::new(G::initial(), config.clone()).unwrap();
    let mut searched = 0;
    for ply in 0.. {
        if search.root_state().outcome().is_some() {
            break;
        }
        let action = match search.forced_action() {
            Some(a) => a,
            None => {
                if ply % 3 == 2 {
                    search.set_budget(4, SearchKind::Fast);
                }
                let s = search.run(&mut evaluator, &mut rng).unwrap();
                assert_eq!(s.simulations, if ply % 3 == 2 { 4 } else { config.simulations });
                assert!((s.improved_policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
                searched += 1;
                choose_action(&s, config.temperature.at(ply), &mut rng).unwrap()
            }
        };
        search.advance(action).unwrap();
    }
    searched
}

#[test]
fn whole_games_play_to_the_end_with_either_selection() {
    for config in [
        MctsConfig { simulations: 24, ..MctsConfig::default() },
        MctsConfig { simulations: 24, selection: Selection::gumbel(4), ..MctsConfig::default() },
    ] {
        for seed in 0..4 {
            assert!(play_game::<TicTacToe>(config.clone(), seed) > 0);
            assert!(play_game::<Race3>(config.clone(), seed) > 0);
        }
    }
}

#[test]
fn a_draw_score_rescores_drawn_end_positions() {
    // X's last move (cell 8) draws; with O's alternatives gone, the root's value is the draw's.
    let position = ttt("XOX/XOO/OX.");
    let fair = search(position, puct(8), &mut UniformEvaluator, 1);
    assert_eq!(fair.root_values.0[..2], [0.5, 0.5]);
    let mut s = Search::new(position, puct(8)).unwrap();
    s.set_draw_score(crate::DrawScore::Fixed(0.1));
    let averse = s.run(&mut UniformEvaluator, &mut StdRng::seed_from_u64(1)).unwrap();
    for v in &averse.root_values.0[..2] {
        assert!((v - 0.1).abs() < 0.05, "{:?}", averse.root_values);
    }
}

/// An evaluator that sees X winning everywhere, with the game ending in 2 moves once X holds
/// the centre and in 20 otherwise.
fn centre_ends_it() -> impl Evaluator<TicTacToe> {
    FnEvaluator(|s: &TicTacToe| {
        let mut legal = Vec::new();
        s.legal_actions(&mut legal);
        let centre = s.to_string().chars().filter(|c| *c != '/').nth(4) == Some('X');
        Evaluation {
            policy: vec![1.0 / legal.len() as f32; legal.len()],
            values: Values([0.95, 0.05, 0.0]),
            moves_left: Some(if centre { 2.0 } else { 20.0 }),
        }
    })
}

#[test]
fn the_moves_left_utility_takes_the_shorter_win_with_either_selection() {
    let utility = MovesLeft::Utility { slope: 0.02, cap: 0.3 };
    for config in [puct(120), gumbel(120)] {
        let visits = |moves_left| {
            let config = MctsConfig { moves_left, ..config.clone() };
            let mut s = Search::new(TicTacToe::initial(), config).unwrap();
            let summary = s.run(&mut centre_ends_it(), &mut StdRng::seed_from_u64(3)).unwrap();
            let centre = summary.actions.iter().position(|&a| a == 4).unwrap();
            let root = s.tree().node(NodeId::ROOT).moves_left();
            (summary.visits[centre], best(&summary), root)
        };
        let (plain, _, none) = visits(MovesLeft::Off);
        let (guided, action, root) = visits(utility);
        assert_eq!(none, None, "off: nothing backed up");
        assert_eq!(action, 4, "{config:?}: {guided} visits to the centre");
        assert!(guided > 2 * plain.max(1), "{config:?}: {guided} against {plain}");
        // The root's mean counts the moves started below it: more than the leaves' 2 or 20.
        let root = root.expect("backed up");
        assert!(root > 2.0 && root < 21.0, "{root}");
    }
}

#[test]
fn moves_left_at_the_end_of_a_game_are_zero() {
    // X wins at 5 in one: with the utility on, every simulation through 5 reaches the end
    // of the game and backs up 0 there (1 at the root, whose move it is).
    let config =
        MctsConfig { moves_left: MovesLeft::Utility { slope: 0.01, cap: 0.1 }, ..puct(50) };
    let mut s = Search::new(ttt(TTT_WIN), config).unwrap();
    s.run(&mut centre_ends_it(), &mut StdRng::seed_from_u64(1)).unwrap();
    let win = s.tree().children(NodeId::ROOT).find(|&c| s.tree().node(c).action == Some(5));
    let win = s.tree().node(win.unwrap());
    assert_eq!(win.kind, NodeKind::Terminal);
    assert_eq!(win.moves_left(), Some(0.0));
    // An evaluation with a bad moves left is refused.
    let mut s = Search::new(TicTacToe::initial(), puct(4)).unwrap();
    let leaf = s.gather(&mut StdRng::seed_from_u64(0)).unwrap();
    let bad = Evaluation { moves_left: Some(f32::NAN), ..Evaluation::uniform(9, 2) };
    assert_eq!(s.apply(leaf, bad), Err(SearchError::BadEvaluation));
}
