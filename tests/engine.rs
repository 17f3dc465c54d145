//! The engine protocol from the outside: `camelot-zero engine` driven by this test as a separate
//! process, through a whole game of each variant (every answer checked by the rules), with
//! malformed commands, a `stop` in the middle of a long search, analysis requests and the end of
//! the input; a game on the clock against the classical player, `go infinite` stopped, `info`
//! while it thinks; and an arena match of the engine against itself through `engine:`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use classical::{AlphaBeta, AlphaBetaLimits};
use games::{CamelotRules, Game, State, TriCamelotRules, Variant};

mod common;

use common::{bin, run, spawn_piped, text};

/// An engine process and its output, line by line.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = spawn_piped(bin().arg("engine").args(args));
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap()).is_err() {
                    return;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn read(&self) -> String {
        self.lines.recv_timeout(Duration::from_secs(60)).expect("an answer within 60 s")
    }

    /// Reads until a line starting with `prefix`; returns it and the lines before.
    fn until(&self, prefix: &str) -> (String, Vec<String>) {
        let mut before = Vec::new();
        loop {
            let line = self.read();
            if line.starts_with(prefix) {
                return (line, before);
            }
            before.push(line);
        }
    }

    /// Sends `line` and returns the one line answered.
    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.read()
    }
}

/// The `position` command of the start position after `moves`.
fn position_after(moves: &[String]) -> String {
    match moves.is_empty() {
        true => "position startpos".to_string(),
        false => format!("position startpos moves {}", moves.join(" ")),
    }
}

/// Plays a whole game of `V` against itself through the engine: each `bestmove` must be one of
/// our rules' legal moves, and the engine's `legal` and `result` must agree with them.
fn whole_game<V: Variant>(engine: &mut Engine, max_moves: usize) -> usize {
    engine.send(&format!("newgame {}", V::NAME));
    let mut state = State::<V>::initial();
    let mut moves: Vec<String> = Vec::new();
    while state.outcome().is_none() && moves.len() < max_moves {
        engine.send(&position_after(&moves));
        let legal = engine.ask("legal");
        let mut ours: Vec<String> =
            state.moves().iter().map(|m| state.position().notation(m)).collect();
        ours.sort();
        assert_eq!(legal, format!("legal {}", ours.join(" ")), "after {moves:?}");
        engine.send("go sims 4");
        let (best, infos) = engine.until("bestmove ");
        assert!(infos.iter().all(|l| l.starts_with("info ")), "{infos:?}");
        let m = best["bestmove ".len()..].to_string();
        state = state.after_move(&m).unwrap_or_else(|e| panic!("illegal bestmove {m}: {e}"));
        moves.push(m);
    }
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    let result = engine.ask("result");
    let over = state.outcome().expect("the game ended by the rules");
    assert!(result.ends_with(&over.termination.to_string()), "{result}");
    let position = engine.ask("getposition");
    assert_eq!(position, format!("position {state}"));
    moves.len()
}

#[test]
fn the_engine_plays_whole_games_of_both_variants_and_survives_bad_commands() {
    let mut engine = Engine::start(&["--sims", "4"]);
    engine.send("czp");
    let (ok, hello) = engine.until("czpok");
    assert_eq!(ok, "czpok");
    assert_eq!(hello[0], "id name camelot-zero");
    assert!(
        hello.iter().any(|l| l.starts_with("option name sims type spin default 4")),
        "{hello:?}"
    );
    assert_eq!(engine.ask("isready"), "readyok");

    // Malformed and illegal commands are answered and the engine goes on.
    for bad in [
        "fly me to the moon",
        "go sims -3",
        "position startpos moves Z1-Z2",
        "position startpos moves C6-C9",
        "position chess W",
        "newgame go",
        "setoption name colour value red",
        "analyze {not json",
    ] {
        let answer = engine.ask(bad);
        assert!(answer.starts_with("error "), "{bad}: {answer}");
    }
    assert_eq!(engine.ask("isready"), "readyok");

    let camelot = whole_game::<CamelotRules>(&mut engine, 2000);
    let tricamelot = whole_game::<TriCamelotRules>(&mut engine, 2000);
    eprintln!("games of {camelot} and {tricamelot} moves");

    // Analyses sent together come back in order, one JSON line each.
    engine.send("newgame camelot");
    engine.send(r#"analyze {"id":"a","position":"startpos","sims":16,"top":3}"#);
    engine.send(r#"analyze {"id":"b","position":"startpos","variant":"tricamelot","moves":["E4-E2"],"sims":8}"#);
    engine.send(r#"analyze {"id":"c","position":"startpos","moves":["C6-C9"]}"#);
    let answers: Vec<serde_json::Value> =
        (0..3).map(|_| serde_json::from_str(&engine.read()).unwrap()).collect();
    assert_eq!(answers[0]["id"], "a");
    assert_eq!(answers[0]["moves"].as_array().unwrap().len(), 3);
    assert_eq!(answers[0]["simulations"], 16);
    assert!(answers[0]["rootValues"]["W"].as_f64().is_some());
    assert_eq!(answers[1]["id"], "b");
    assert_eq!(answers[1]["variant"], "tricamelot");
    assert_eq!(answers[1]["turn"], "R");
    assert!(answers[2]["error"].as_str().unwrap().contains("C6-C9"), "{}", answers[2]);

    // A long search stopped in the middle answers at once with a move.
    engine.send("position startpos");
    engine.send("go sims 1000000");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    assert_eq!(engine.ask("isready"), "readyok", "answered while searching");
    engine.send("stop");
    let (best, _) = engine.until("bestmove ");
    assert!(t.elapsed() < Duration::from_secs(5), "stopped in {:?}", t.elapsed());
    State::<CamelotRules>::initial().after_move(&best["bestmove ".len()..]).unwrap();

    // The end of the input ends the engine cleanly.
    drop(engine.stdin);
    let status = engine.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

/// The engine's side of a game on a 10 s + 0.1 s clock (`go wtime … winc …`) against
/// `alphabeta:depth=1`, whose moves take no clock time: the time from each `go` to its
/// `bestmove`, as this side of the pipe sees it, comes off the engine's clock, and the
/// clock must never run out.
#[test]
fn the_engine_never_loses_on_time_on_a_clock() {
    let mut engine = Engine::start(&[]);
    engine.send("newgame camelot");
    let mut opponent = AlphaBeta::<CamelotRules>::new(AlphaBetaLimits { depth: 1, time: None });
    let (start_ms, increment_ms) = (10_000i64, 100i64);
    let mut left_ms = start_ms;
    let mut state = State::<CamelotRules>::initial();
    let (mut moves, mut engine_moves, mut spent_ms) = (Vec::<String>::new(), 0i64, 0i64);
    while state.outcome().is_none() && moves.len() < 400 {
        let m = if state.to_move().index() == 0 {
            engine.send(&position_after(&moves));
            let t = Instant::now();
            engine.send(&format!(
                "go wtime {left_ms} btime {start_ms} winc {increment_ms} binc {increment_ms}"
            ));
            let (best, _) = engine.until("bestmove ");
            let spent = t.elapsed().as_millis() as i64;
            left_ms -= spent;
            assert!(left_ms > 0, "the engine lost on time at move {}: {spent} ms", moves.len());
            left_ms += increment_ms;
            (engine_moves, spent_ms) = (engine_moves + 1, spent_ms + spent);
            best["bestmove ".len()..].to_string()
        } else {
            let found = opponent.search(state.position()).expect("a move");
            state.position().notation(&found.best)
        };
        state = state.after_move(&m).unwrap_or_else(|e| panic!("illegal move {m}: {e}"));
        moves.push(m);
    }
    eprintln!("{} moves, the engine's {engine_moves}; {left_ms} ms left", moves.len());
    assert!(engine_moves >= 5, "a game long enough to spend the clock");
    // The clock is used, not hoarded: a move takes a share of it (forced moves take none).
    assert!(spent_ms / engine_moves >= 50, "{spent_ms} ms over {engine_moves} moves");
}

#[test]
fn go_infinite_stops_at_once_and_a_long_search_reports_every_second() {
    let mut engine = Engine::start(&[]);
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(500));
    let t = Instant::now();
    engine.send("stop");
    let (best, infos) = engine.until("bestmove ");
    let answered = t.elapsed();
    assert!(answered < Duration::from_millis(100), "stopped in {answered:?}");
    assert!(!infos.is_empty(), "an info line every 0.5 s");
    State::<CamelotRules>::initial().after_move(&best["bestmove ".len()..]).unwrap();

    engine.send("go movetime 5000");
    let started = Instant::now();
    let mut last = started;
    let mut reports = 0;
    loop {
        let line = engine.read();
        let gap = last.elapsed();
        assert!(gap <= Duration::from_secs(1), "{gap:?} without a line before {line:?}");
        last = Instant::now();
        if line.starts_with("bestmove ") {
            break;
        }
        assert!(line.starts_with("info leg ") && line.contains(" nps "), "{line}");
        reports += 1;
    }
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(4_900) && took < Duration::from_millis(5_500),
        "{took:?}"
    );
    assert!(reports >= 5, "{reports} info lines in 5 s");
}

#[test]
fn a_ponder_answers_only_after_ponderhit_and_then_on_its_clock() {
    let mut engine = Engine::start(&[]);
    engine.send("position startpos");
    engine.send("go ponder movetime 300");
    // While pondering, no budget ends the search: no bestmove in 800 ms (300 would have).
    let pondering = Instant::now();
    while pondering.elapsed() < Duration::from_millis(800) {
        if let Ok(line) = engine.lines.recv_timeout(Duration::from_millis(50)) {
            assert!(!line.starts_with("bestmove"), "answered while pondering: {line}");
        }
    }
    let hit = Instant::now();
    engine.send("ponderhit");
    let (best, infos) = engine.until("bestmove ");
    let took = hit.elapsed();
    // The move's 300 ms start at `ponderhit`.
    assert!(took >= Duration::from_millis(250) && took < Duration::from_millis(1500), "{took:?}");
    assert!(!infos.is_empty(), "info lines while pondering");
    State::<CamelotRules>::initial().after_move(&best["bestmove ".len()..]).unwrap();

    // `stop` ends a ponder at once; a `ponderhit` with nothing pondering is ignored.
    engine.send("go ponder wtime 60000 btime 60000");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    engine.send("stop");
    engine.until("bestmove ");
    assert!(t.elapsed() < Duration::from_millis(100), "stopped in {:?}", t.elapsed());
    engine.send("ponderhit");
    assert_eq!(engine.ask("isready"), "readyok");
}

#[test]
fn an_arena_plays_the_engine_against_itself() {
    let engine = format!("engine:{} engine --sims 4", env!("CARGO_BIN_EXE_camelot-zero"));
    let out = run(&["arena", "--a", &engine, "--b", &engine, "--games", "2", "--max-moves", "40"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("engine:camelot-zero engine --sims 4"), "{stdout}");
    assert!(stdout.contains("Elo A - B"), "{stdout}");
    // A program that does not speak the protocol is refused with a message, not a hang.
    let out = run(&["arena", "--a", "engine:/nonexistent/engine", "--b", "random", "--games", "2"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("could not be started"), "{}", text(&out.stderr));
}
