//! The engine protocol from the outside: `camelot-zero engine` driven by this test as a separate
//! process, through a whole game of each variant (every answer checked by the rules), with
//! malformed commands, a `stop` in the middle of a long search, analysis requests and the end of
//! the input; and an arena match of the engine against itself through `engine:`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

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

/// Plays a whole game of `V` against itself through the engine: each `bestmove` must be one of
/// our rules' legal moves, and the engine's `legal` and `result` must agree with them.
fn whole_game<V: Variant>(engine: &mut Engine, max_moves: usize) -> usize {
    engine.send(&format!("newgame {}", V::NAME));
    let mut state = State::<V>::initial();
    let mut moves: Vec<String> = Vec::new();
    while state.outcome().is_none() && moves.len() < max_moves {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        engine.send(&position);
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
