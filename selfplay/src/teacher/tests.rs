use std::sync::atomic::AtomicBool;

use games::{Camelot, CamelotRules, Game, Outcome, Player, State, Termination, TriCamelotRules};

use super::*;
use crate::driver::{Sparrer, Start};
use classical::Guards;
use classical::alphabeta::AlphaBetaLimits;
use records::{PositionRow, Shard, read_shard, write_shard};
use search::TacticsFilter;

/// A row of `position` whose search spread its target evenly over every legal action (seat 0
/// to move), for the teacher's tests of what it does to a search's rows.
pub(super) fn even_row(position: &str, full_search: bool) -> PositionRow {
    let row = PositionRow::uniform(&state(position), vec![0.5, 0.5], full_search);
    assert_eq!((row.position.as_str(), row.mover), (position, 0), "a position of seat 0");
    row
}

const ALPHA_BETA: Teacher = Teacher::AlphaBeta {
    depth: 2,
    fraction: 0.5,
    fade_generations: 10,
    explore: 0.0,
    targets: BEST,
    label: 0.0,
    spar: 0.0,
};
const BEST: TeacherTargets = TeacherTargets::Best;
const SOFT: TeacherTargets = TeacherTargets::Soft { temperature: 30.0 };
const SAFE: TeacherTargets = TeacherTargets::Safe { share: 0.5, depth: 1, margin: 100 };

/// [`ALPHA_BETA`] to `depth`, sparring in the share `spar` of the searches' games.
fn sparring(depth: u32, spar: f32) -> Teacher {
    match ALPHA_BETA {
        Teacher::AlphaBeta { fraction, fade_generations, explore, targets, label, .. } => {
            Teacher::AlphaBeta { depth, fraction, fade_generations, explore, targets, label, spar }
        }
        Teacher::Off => unreachable!(),
    }
}

fn config() -> SelfPlayConfig {
    SelfPlayConfig { max_moves: 200, workers: 2, ..SelfPlayConfig::default() }
}

/// The depth-2 teacher's game from `start` with `targets`.
fn taught(start: &str, targets: TeacherTargets) -> PlayedGame {
    teacher_game(state(start), 0, 1, 2, 0.0, targets, &config())
}

/// [`taught`] with `targets` and with [`BEST`], checked to play the same moves.
fn beside_best(start: &str, targets: TeacherTargets) -> (PlayedGame, PlayedGame) {
    let (game, best) = (taught(start, targets), taught(start, BEST));
    assert_eq!(game.game.moves, best.game.moves, "the targets do not change the play");
    (game, best)
}

/// A state from a position string, with a move in progress or not.
pub(super) fn state(s: &str) -> Camelot {
    State::parse_with(s, games::RuleOptions::default()).unwrap()
}

/// The action index of the leg written `from>to` in `position`.
pub(super) fn leg_index(position: &str, leg: &str) -> u16 {
    let s = state(position);
    s.action_index(s.parse_action(leg).unwrap()) as u16
}

#[test]
fn the_share_fades_linearly_and_the_draw_is_per_game() {
    assert_eq!(ALPHA_BETA.fraction_at(0), 0.5);
    assert_eq!(ALPHA_BETA.fraction_at(5), 0.25);
    assert_eq!(ALPHA_BETA.fraction_at(10), 0.0);
    assert_eq!(ALPHA_BETA.fraction_at(40), 0.0);
    assert_eq!(Teacher::Off.fraction_at(0), 0.0);
    let taught = |g: u32| (0..2000).filter(|&id| ALPHA_BETA.plays(g, 7, id)).count();
    assert!((900..1100).contains(&taught(0)), "{}", taught(0));
    assert!((400..600).contains(&taught(5)), "{}", taught(5));
    assert_eq!(taught(10), 0);
    assert!(!Teacher::Off.plays(0, 7, 3));
    // The same ids whenever asked (a resumed session plays the same games), others by seed.
    let ids = |seed| (0..64).filter(|&id| ALPHA_BETA.plays(0, seed, id)).collect::<Vec<_>>();
    assert_eq!(ids(7), ids(7));
    assert_ne!(ids(7), ids(8));
}

#[test]
fn the_teacher_plays_a_sacrifice_that_wins_a_chain_and_records_its_legs() {
    // F7-F8 offers a Man that Black must take (F9xF7, its only legal move: no row), and E6 then
    // jumps three (the alpha-beta player's own test of this position).
    let start = "camelot W W:KA4,KB4,MD5,ME6,MF7 B:KA13,KL13,MF9,MH8,MI9 cm=0,0";
    let game = taught(start, BEST);
    assert_eq!(game.game.moves[..2], ["F7-F8".to_string(), "F9xF7".to_string()]);
    assert!(game.game.moves[2].starts_with("E6xG8"), "{:?}", game.game.moves);
    let first = &game.positions[0];
    assert_eq!((first.position.as_str(), first.move_number, first.ply), (start, 0, 0));
    assert_eq!(
        (first.policy_actions.clone(), first.policy_target.clone()),
        (vec![leg_index(start, "F7>F8")], vec![1.0])
    );
    assert!(first.root_values[0] > 0.5, "White wins material: {:?}", first.root_values);
    // Black's capture and every leg of White's chain were the only legal actions (captures
    // are compulsory, and so is going on jumping): no rows until Black's next move.
    assert_eq!(game.positions[1].move_number, 3);
    assert_eq!(game.game.model, "alphabeta:depth=2");
}

#[test]
fn a_castle_entry_in_one_is_played_and_scored() {
    let start = "camelot W W:KA4,MF15,MG16 B:KA13,KL13,MB6 cm=0,0";
    let game = teacher_game(state(start), 0, 1, 1, 0.0, BEST, &config());
    assert_eq!(game.game.moves, ["F15-F16"]);
    assert_eq!(game.game.termination, Termination::Castle);
    assert_eq!(game.outcome, Some(Outcome::Win(Player(0))));
    assert_eq!(game.game.result, [1.0, 0.0]);
    let [row] = &game.positions[..] else { panic!("{:?}", game.positions) };
    assert_eq!(row.policy_actions, vec![leg_index(start, "F15>F16")]);
    assert_eq!((row.result.clone(), row.root_values.clone()), (vec![1.0, 0.0], vec![1.0, 0.0]));
}

#[test]
fn every_row_targets_legal_actions_and_the_rows_are_valid_records() {
    let explore = 0.1;
    let config = SelfPlayConfig {
        start: Start::Endgames { fraction: 0.5, min_pieces: 2, max_pieces: 6 },
        ..config()
    };
    let games: Vec<PlayedGame> = (0..8)
        .map(|id| {
            let targets = if id % 2 == 0 { BEST } else { SOFT };
            teacher_game(Camelot::initial(), id, 3, 1 + id as u32 % 3, explore, targets, &config)
        })
        .collect();
    let mut legs_in_progress = [0, 0];
    for g in &games {
        assert_eq!(g.game.plies as usize, g.game.moves.len());
        assert!(!g.positions.is_empty());
        for row in &g.positions {
            let s = state(&row.position);
            for &i in &row.policy_actions {
                let a = s.action_from_index(i as usize).unwrap();
                assert!(s.is_legal(a), "{} in {}", s.action_to_string(a), row.position);
            }
            assert!(row.policy_actions.windows(2).all(|w| w[0] < w[1]), "ascending, distinct");
            let sum: f32 = row.policy_target.iter().sum();
            assert!((sum - 1.0).abs() < 1e-4 && row.policy_target.iter().all(|&p| p > 0.0));
            if g.game.game_id % 2 == 0 {
                assert_eq!(row.policy_target, [1.0], "one-hot");
            }
            if !s.landed().is_empty() {
                legs_in_progress[g.game.game_id as usize % 2] += 1;
            }
            assert_eq!(row.result, g.game.result);
            assert!(row.full_search);
        }
        // The moves replay from the start position to the end the game reports.
        let mut s = state(&g.game.start_position);
        for m in &g.game.moves {
            s = s.after_move(m).unwrap();
        }
        if g.game.termination != Termination::MoveLimit {
            assert_eq!(s.outcome().map(|o| o.termination), Some(g.game.termination));
        }
    }
    // Rows inside a capture chain, under both kinds of targets.
    assert!(legs_in_progress.iter().all(|&n| n > 0), "{legs_in_progress:?}");
    let dir = std::env::temp_dir().join(format!("cz-teacher-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut shard = Shard { games: Vec::new(), positions: Vec::new() };
    for g in &games {
        let mut record = g.game.clone();
        (record.run, record.variant) = ("t".into(), "camelot".into());
        shard.games.push(record);
        shard.positions.extend(g.positions.iter().cloned());
    }
    let paths = write_shard(&dir, 0, "t", 0, &shard).unwrap();
    let back = read_shard(&paths.games).unwrap();
    assert_eq!(back.positions.len(), shard.positions.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn exploration_makes_the_games_differ() {
    let play = |id, explore| teacher_game(Camelot::initial(), id, 5, 1, explore, BEST, &config());
    // Alpha-beta alone is deterministic: every game from the start is the same game.
    assert_eq!(play(0, 0.0).game.moves, play(1, 0.0).game.moves);
    let (a, b) = (play(0, 0.2), play(1, 0.2));
    assert_ne!(a.game.moves, b.game.moves);
    // Each explored move keeps one row (its first leg's decision, the teacher's choice).
    assert_eq!(a.game.moves, play(0, 0.2).game.moves, "a game is determined by its seed");
}

#[test]
fn tri_camelot_games_are_played_for_three_seats() {
    let game = teacher_game(State::<TriCamelotRules>::initial(), 0, 1, 1, 0.1, SOFT, &config());
    assert_eq!(game.game.result.len(), 3);
    assert!((game.game.result.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    assert!(game.positions.iter().all(|r| r.root_values.len() == 3 && r.mover < 3));
}

#[test]
fn a_session_plays_every_id_once_and_stops_on_a_handler_error() {
    let start = |_: u64| State::<CamelotRules>::initial();
    let teacher = Teacher::AlphaBeta {
        depth: 1,
        fraction: 1.0,
        fade_generations: 1,
        explore: 0.1,
        targets: BEST,
        label: 0.0,
        spar: 0.0,
    };
    let ids = [3, 5, 8, 13, 21];
    let mut seen = Vec::new();
    let stats = play_teacher_games(teacher, &config(), &ids, 9, &start, None, |g, s| {
        seen.push(g.game.game_id);
        assert_eq!(s.games as usize, seen.len());
        Ok(())
    })
    .unwrap();
    seen.sort();
    assert_eq!(seen, ids);
    assert_eq!(stats.games, 5);
    assert_eq!(stats.evaluations, 0);
    let mut calls = 0;
    let err = play_teacher_games(teacher, &config(), &ids, 9, &start, None, |_, _| {
        calls += 1;
        if calls == 2 { Err("disk full".to_string()) } else { Ok(()) }
    });
    assert_eq!(err, Err("disk full".to_string()));
    assert_eq!(calls, 2);
    let stop = AtomicBool::new(true);
    let none = play_teacher_games(teacher, &config(), &ids, 9, &start, Some(&stop), |_, _| {
        panic!("no game starts once stopped")
    });
    assert_eq!(none.map(|s| s.games), Ok(0));
    let off = play_teacher_games(Teacher::Off, &config(), &ids, 9, &start, None, |_, _| Ok(()));
    assert_eq!(off.map(|s| s.games), Ok(0));
}

#[test]
fn the_setting_reads_from_toml_and_bad_values_name_their_key() {
    #[derive(serde::Deserialize)]
    struct Section {
        teacher: Teacher,
    }
    let text = "teacher = { alpha_beta = { depth = 2, fraction = 1.0, fade_generations = 10, \
                explore = 0.05 } }";
    let section: Section = toml::from_str(text).unwrap();
    let read = Teacher::AlphaBeta {
        depth: 2,
        fraction: 1.0,
        fade_generations: 10,
        explore: 0.05,
        targets: BEST,
        label: 0.0,
        spar: 0.0,
    };
    assert_eq!(section.teacher, read, "one-hot targets and no labels unless told");
    let soft = text.replace("0.05 }", "0.05, targets = { soft = { temperature = 30.0 } } }");
    let Teacher::AlphaBeta { targets, .. } = toml::from_str::<Section>(&soft).unwrap().teacher
    else {
        panic!("{soft}")
    };
    assert_eq!(targets, SOFT);
    let safe = text
        .replace("0.05 }", "0.05, targets = { safe = { share = 0.5, depth = 1, margin = 100 } } }");
    let Teacher::AlphaBeta { targets, .. } = toml::from_str::<Section>(&safe).unwrap().teacher
    else {
        panic!("{safe}")
    };
    assert_eq!(targets, SAFE);
    let no_margin = safe.replace(", margin = 100", "");
    assert!(toml::from_str::<Section>(&no_margin).is_err(), "{no_margin}");
    let labelled = text.replace("0.05 }", "0.05, label = 0.5 }");
    let Teacher::AlphaBeta { label, .. } = toml::from_str::<Section>(&labelled).unwrap().teacher
    else {
        panic!("{labelled}")
    };
    assert_eq!(label, 0.5);
    let best = text.replace("0.05 }", "0.05, targets = \"best\" }");
    assert_eq!(toml::from_str::<Section>(&best).unwrap().teacher, read);
    assert!(
        toml::from_str::<Section>(&text.replace("0.05 }", "0.05, targets = \"soft\" }")).is_err()
    );
    let bad = |teacher| SelfPlayConfig { teacher, ..config() }.validate(2).unwrap_err().to_string();
    let t = |depth, fraction, fade_generations, explore| Teacher::AlphaBeta {
        depth,
        fraction,
        fade_generations,
        explore,
        targets: BEST,
        label: 0.0,
        spar: 0.0,
    };
    assert!(bad(t(0, 1.0, 10, 0.0)).starts_with("selfplay.teacher.alpha_beta.depth"));
    assert!(bad(t(2, 1.5, 10, 0.0)).starts_with("selfplay.teacher.alpha_beta.fraction"));
    assert!(bad(t(2, 1.0, 0, 0.0)).starts_with("selfplay.teacher.alpha_beta.fade_generations"));
    assert!(bad(t(2, 1.0, 10, 1.0)).starts_with("selfplay.teacher.alpha_beta.explore"));
    for label in [-0.1, 1.5, f32::NAN] {
        let teacher = Teacher::AlphaBeta {
            depth: 2,
            fraction: 1.0,
            fade_generations: 10,
            explore: 0.0,
            targets: BEST,
            label,
            spar: 0.0,
        };
        assert!(bad(teacher).starts_with("selfplay.teacher.alpha_beta.label"), "{label}");
    }
    assert_eq!(SelfPlayConfig { teacher: t(2, 1.0, 10, 0.05), ..config() }.validate(2), Ok(()));
    for temperature in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        let teacher = Teacher::AlphaBeta {
            depth: 2,
            fraction: 1.0,
            fade_generations: 10,
            explore: 0.05,
            targets: TeacherTargets::Soft { temperature },
            label: 0.0,
            spar: 0.0,
        };
        assert!(
            bad(teacher).starts_with("selfplay.teacher.alpha_beta.targets.soft.temperature"),
            "{temperature}"
        );
    }
    let safe = |share, depth, margin| Teacher::AlphaBeta {
        depth: 2,
        fraction: 1.0,
        fade_generations: 10,
        explore: 0.05,
        targets: TeacherTargets::Safe { share, depth, margin },
        label: 0.0,
        spar: 0.0,
    };
    assert_eq!(SelfPlayConfig { teacher: safe(1.0, 4, 1), ..config() }.validate(2), Ok(()));
    for (teacher, key) in [
        (safe(-0.1, 1, 100), "share"),
        (safe(1.5, 1, 100), "share"),
        (safe(f32::NAN, 1, 100), "share"),
        (safe(0.5, 0, 100), "depth"),
        (safe(0.5, 5, 100), "depth"),
        (safe(0.5, 1, 0), "margin"),
    ] {
        let error = bad(teacher);
        let want = format!("selfplay.teacher.alpha_beta.targets.safe.{key}");
        assert!(error.starts_with(&want), "{error}");
    }
}

#[test]
fn safe_targets_keep_the_teachers_move_and_spread_the_rest_over_the_moves_that_do_not_lose() {
    // White's Man on F7 faces Black's on F9 across an empty F8: F7-F8 is jumped, and so is
    // any piece walked beside a Black one with an empty square behind it; most moves are safe.
    // (In the sacrifice position every move but the winning one scores a Man below it.)
    let start = "camelot W W:KA4,ME4,MF7 B:KA13,MF9,ML13 cm=0,0";
    let (safe, best) = beside_best(start, SAFE);
    let row = &safe.positions[0];
    let sum: f32 = row.policy_target.iter().sum();
    assert!((sum - 1.0).abs() < 1e-5, "{sum}");
    let s = state(start);
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    let actions: Vec<u16> = legal.iter().map(|&a| s.action_index(a) as u16).collect();
    // The judge of the tactics filter and of `stats blunders`, on its own code path: a first
    // leg loses when every move it starts does.
    let losing = TacticsFilter::AlphaBeta { depth: 1, margin: 100 }
        .guard::<CamelotRules>()
        .unwrap()
        .losing(&s, &actions);
    let (lost, kept): (Vec<_>, Vec<_>) = actions.iter().zip(&losing).partition(|(_, l)| **l);
    assert!(lost.len() >= 3 && kept.len() >= 3, "a tactical position: {losing:?}");
    let target = |a: u16| {
        let i = row.policy_actions.iter().position(|&b| b == a);
        i.map_or(0.0, |i| row.policy_target[i])
    };
    let teachers = best.positions[0].policy_actions[0];
    assert!(!losing[actions.iter().position(|&a| a == teachers).unwrap()], "a safe move");
    assert_eq!(target(leg_index(start, "F7>F8")), 0.0, "jumped");
    assert!(target(teachers) >= 0.5, "{}", target(teachers));
    for (&a, _) in lost.into_iter().filter(|&(&a, _)| a != teachers) {
        assert_eq!(target(a), 0.0, "a losing first leg gets no target: {a}");
    }
    for (&a, _) in kept.into_iter().filter(|&(&a, _)| a != teachers) {
        assert!(target(a) > 0.0, "a safe first leg gets some: {a}");
    }
    // The safe moves share half evenly: a first leg's target counts the safe moves it starts.
    let mut searcher = AlphaBeta::<CamelotRules>::new(AlphaBetaLimits { depth: 2, time: None });
    let (found, weights) = SAFE.weigh(&mut searcher, &s).unwrap();
    let spread: Vec<f64> = weights.iter().copied().filter(|&w| w > 0.0 && w < 0.5).collect();
    assert!(spread.windows(2).all(|w| (w[0] - w[1]).abs() < 1e-12), "{spread:?}");
    let best_weight = weights[s.moves().iter().position(|m| *m == found.best).unwrap()];
    let own = [0.5, 0.5 + spread[0]];
    assert!(own.iter().any(|w| (best_weight - w).abs() < 1e-12), "{best_weight}");
    // share 0: the teacher's move alone, as one-hot targets.
    let alone = TeacherTargets::Safe { share: 0.0, depth: 1, margin: 100 };
    let one_hot = taught(start, alone);
    assert_eq!(one_hot.positions[0].policy_target, best.positions[0].policy_target);
    assert_eq!(one_hot.positions[0].policy_actions, best.positions[0].policy_actions);
}

#[test]
fn soft_targets_weigh_every_move_by_its_score() {
    // The sacrifice position: F7-F8 wins two Men net; most other moves win nothing, and those
    // that walk a piece beside Black's with an empty square behind lose one.
    let start = "camelot W W:KA4,KB4,MD5,ME6,MF7 B:KA13,KL13,MF9,MH8,MI9 cm=0,0";
    let (soft, _) = beside_best(start, SOFT);
    let row = &soft.positions[0];
    let top = row.policy_target.iter().cloned().fold(0.0, f32::max);
    let i = row.policy_target.iter().position(|&p| p == top).unwrap();
    assert_eq!(row.policy_actions[i], leg_index(start, "F7>F8"));
    assert!(top > 0.9, "two Men ahead of the next at temperature 30: {top}");
    assert!(row.policy_actions.len() > 1, "{:?}", row.policy_target);
    // The same share from the weights: exp(-(best - score) / 30) over the sum.
    let s = state(start);
    let mut searcher = AlphaBeta::<CamelotRules>::new(AlphaBetaLimits { depth: 2, time: None });
    let found = searcher.search(s.position()).unwrap();
    let scores = searcher.root_scores(s.position(), s.moves(), &found, SOFT.margin().unwrap());
    let weights = SOFT.move_weights(s.moves(), &found.best, &scores);
    assert!((weights.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    let (actions, targets) = leg_target(&s, &weights).unwrap();
    assert_eq!((&actions, &targets), (&row.policy_actions, &row.policy_target));
    let one_hot = BEST.move_weights(s.moves(), &found.best, &[]);
    assert_eq!(leg_target(&s, &one_hot), Some((vec![leg_index(start, "F7>F8")], vec![1.0])));
}

#[test]
fn the_sparring_share_is_drawn_per_game_and_every_seat_gets_its_part() {
    let spar = |spar| sparring(2, spar);
    let seats = |teacher: Teacher, seed, n| {
        (0..2000).filter_map(|id| teacher.spar_seat(seed, id, n)).fold(vec![0; n], |mut c, s| {
            c[s.index()] += 1;
            c
        })
    };
    let two = seats(spar(0.5), 7, 2);
    assert!((900..1100).contains(&two.iter().sum::<usize>()), "{two:?}");
    assert!(two.iter().all(|&c| (400..600).contains(&c)), "{two:?}");
    let three = seats(spar(1.0), 7, 3);
    assert_eq!(three.iter().sum::<usize>(), 2000);
    assert!(three.iter().all(|&c| (580..760).contains(&c)), "{three:?}");
    assert_eq!(seats(spar(0.0), 7, 2), [0, 0]);
    assert_eq!(Teacher::Off.spar_seat(7, 3, 2), None);
    // The same games and seats whenever asked (a resumed session), others by seed.
    let drawn = |seed| (0..64).map(|id| spar(0.5).spar_seat(seed, id, 2)).collect::<Vec<_>>();
    assert_eq!(drawn(7), drawn(7));
    assert_ne!(drawn(7), drawn(8));
    assert!(spar(0.0).sparrers::<CamelotRules>(7).is_none());
    assert!(Teacher::Off.sparrers::<CamelotRules>(7).is_none());
    // Read from the config, and checked.
    #[derive(serde::Deserialize)]
    struct Section {
        teacher: Teacher,
    }
    let text = "teacher = { alpha_beta = { depth = 2, fraction = 0.5, fade_generations = 10, \
                explore = 0.0, spar = 0.25 } }";
    assert_eq!(toml::from_str::<Section>(text).unwrap().teacher, spar(0.25));
    for share in [-0.1, 1.5, f32::NAN] {
        let bad = SelfPlayConfig { teacher: spar(share), ..config() }.validate(2).unwrap_err();
        assert!(bad.to_string().starts_with("selfplay.teacher.alpha_beta.spar"), "{bad}");
    }
    let make = spar(1.0).sparrers::<CamelotRules>(7).unwrap();
    let sparrer = make(3).expect("every game spars at share 1");
    assert_eq!(Some(sparrer.seat()), spar(1.0).spar_seat(7, 3, 2));
    assert_eq!(sparrer.name(), "alphabeta:depth=2");
}

#[test]
fn a_sparring_game_is_recorded_under_both_players_in_seat_order() {
    let teacher = sparring(1, 0.5);
    let make = teacher.sparrers::<CamelotRules>(7).unwrap();
    let config = SelfPlayConfig { games_in_flight: 4, max_moves: 4, ..config() };
    let mcts = search::MctsConfig { simulations: 4, ..search::MctsConfig::default() };
    let start = |_: u64| Camelot::initial();
    let session = crate::driver::Session {
        sparring: Some(&make),
        ..crate::driver::Session::new(&config, &mcts, (0..12).collect(), 7, &start)
    };
    let dir = std::env::temp_dir().join(format!("cz-spar-names-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut writer = crate::ShardWriter::new(&dir, "t", 3, "camelot", "gen-0003", 12).unwrap();
    let on_game = |g, s: &crate::SelfPlayStats| {
        writer.push(&g, s).map_err(|e| e.to_string())?;
        Ok(())
    };
    crate::driver::play(&session, &|_| search::UniformEvaluator, on_game, |_| {}).unwrap();
    writer.flush().unwrap();
    let shards = records::list_shards(&dir).unwrap();
    let records: Vec<_> =
        shards.iter().flat_map(|s| records::read_games(&s.games).unwrap()).collect();
    assert_eq!(records.len(), 12);
    let mut seen = std::collections::BTreeSet::new();
    for game in &records {
        let expected = match teacher.spar_seat(7, game.game_id, 2) {
            None => "gen-0003",
            Some(Player(0)) => "alphabeta:depth=1 vs gen-0003",
            Some(_) => "gen-0003 vs alphabeta:depth=1",
        };
        assert_eq!(game.model, expected, "game {}", game.game_id);
        seen.insert(expected);
    }
    assert_eq!(seen.len(), 3, "12 games at share 0.5 have both seats and none: {seen:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_sparring_partner_plays_the_teachers_move_with_its_rows() {
    // The sacrifice position: the teacher at depth 2 plays F7-F8 (one leg, a one-hot row).
    let start = "camelot W W:KA4,KB4,MD5,ME6,MF7 B:KA13,KL13,MF9,MH8,MI9 cm=0,0";
    let mut sparrer = TeacherSparrer::<CamelotRules>::new(Player(0), 2, BEST);
    let s = state(start);
    let chosen = sparrer.choose(&s);
    assert_eq!(chosen.legs.len(), 1);
    let (action, policy) = &chosen.legs[0];
    assert_eq!(s.action_index(*action) as u16, leg_index(start, "F7>F8"));
    assert_eq!(policy, &Some((vec![leg_index(start, "F7>F8")], vec![1.0])));
    assert_eq!(chosen.values.len(), 2);
    assert!(chosen.values[0] > chosen.values[1], "White wins two Men: {:?}", chosen.values);
    // Black's reply is forced (F9xF7); then E6 jumps a chain, each leg the only legal action
    // (captures are compulsory, and so is going on jumping): no rows.
    let mut s = s;
    s.play(*action);
    let mut forced = Vec::new();
    s.legal_actions(&mut forced);
    assert_eq!(forced.len(), 1);
    s.play(forced[0]);
    let chain = sparrer.choose(&s);
    assert!(chain.legs.len() >= 3, "{:?}", chain.legs);
    assert!(chain.legs.iter().all(|(_, policy)| policy.is_none()), "{:?}", chain.legs);
    let mut after = s.clone();
    for (i, (leg, _)) in chain.legs.iter().enumerate() {
        after.play(*leg);
        // One move: no leg but the last completes it.
        assert_eq!(after.last_move().is_some(), i + 1 == chain.legs.len());
    }
    assert!(after.last_move().unwrap().starts_with("E6xG8"), "{:?}", after.last_move());
}
