//! The client side of the engine protocol: an external engine process (ours or another
//! program speaking the protocol) as a player. Used by the arena's `engine:<command line>`
//! players and by `play --engine`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use games::{KnightCanter, VariantKind};

use super::protocol::Limits;

/// How long an engine may take to answer one request before it is given up.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(600);
/// How long an engine may take to start and complete the handshake.
pub const START_TIMEOUT: Duration = Duration::from_secs(30);

/// Why an engine could not be used; every variant names the engine's command line.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("engine `{command}`: empty command line")]
    Empty { command: String },
    #[error("engine `{command}` could not be started: {source}")]
    Spawn { command: String, source: std::io::Error },
    #[error("engine `{command}`: writing to it failed (did it exit?): {source}")]
    Write { command: String, source: std::io::Error },
    #[error("engine `{command}` exited (or closed its output) while {doing}")]
    Exited { command: String, doing: &'static str },
    #[error("engine `{command}` did not answer within {} s while {doing}", timeout.as_secs())]
    Timeout { command: String, timeout: Duration, doing: &'static str },
    #[error("engine `{command}` answered `{line}` while {doing}")]
    Refused { command: String, line: String, doing: &'static str },
}

/// A running engine process, after the handshake.
pub struct EngineClient {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The engine's `id name`.
    name: String,
    timeout: Duration,
}

impl EngineClient {
    /// Starts `command_line` (a program and its arguments, split at whitespace) and completes
    /// the handshake (`czp` ... `czpok`).
    pub fn start(command_line: &str) -> Result<EngineClient, EngineError> {
        let command = command_line.trim().to_string();
        let mut words = command.split_whitespace();
        let program =
            words.next().ok_or_else(|| EngineError::Empty { command: command.clone() })?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|source| EngineError::Spawn { command: command.clone(), source })?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut client = EngineClient {
            command,
            child,
            stdin,
            lines: rx,
            name: String::new(),
            timeout: START_TIMEOUT,
        };
        client.send("czp")?;
        loop {
            let line = client.read("starting (it should answer `czp` with `czpok`)")?;
            if let Some(name) = line.strip_prefix("id name ") {
                client.name = name.trim().to_string();
            } else if line.trim() == "czpok" {
                break;
            }
        }
        client.timeout = ANSWER_TIMEOUT;
        Ok(client)
    }

    /// The engine's name (`id name`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The command line it was started with.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Sets how long one answer may take.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// Starts a new game of `variant` with the rule option.
    pub fn new_game(
        &mut self,
        variant: VariantKind,
        knight_canter: KnightCanter,
    ) -> Result<(), EngineError> {
        let doing = "starting a game";
        self.send(&format!("newgame {variant} knight_canter={knight_canter}"))?;
        self.sync(doing)
    }

    /// The engine's move after `moves` from the position string `start`, searched with
    /// `limits` (none: the engine's own budget). The move is as the engine wrote it: checking it
    /// is the referee's job.
    pub fn best_move(
        &mut self,
        start: &str,
        moves: &[String],
        limits: &Limits,
    ) -> Result<String, EngineError> {
        let doing = "choosing a move";
        let mut position = format!("position {start}");
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.send(&position)?;
        self.send(&limits.go_line())?;
        loop {
            let line = self.read(doing)?;
            if let Some(m) = line.strip_prefix("bestmove ") {
                return Ok(m.trim().to_string());
            }
            if line.starts_with("error") {
                return Err(self.refused(line, doing));
            }
        }
    }

    /// Waits until every command sent so far is handled (`isready` ... `readyok`); an `error`
    /// answer on the way is returned.
    fn sync(&mut self, doing: &'static str) -> Result<(), EngineError> {
        self.send("isready")?;
        loop {
            let line = self.read(doing)?;
            match line.trim() {
                "readyok" => return Ok(()),
                l if l.starts_with("error") => return Err(self.refused(line, doing)),
                _ => {}
            }
        }
    }

    fn refused(&self, line: String, doing: &'static str) -> EngineError {
        EngineError::Refused { command: self.command.clone(), line, doing }
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|source| EngineError::Write { command: self.command.clone(), source })
    }

    fn read(&mut self, doing: &'static str) -> Result<String, EngineError> {
        match self.lines.recv_timeout(self.timeout) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout {
                command: self.command.clone(),
                timeout: self.timeout,
                doing,
            }),
            Err(RecvTimeoutError::Disconnected) => {
                Err(EngineError::Exited { command: self.command.clone(), doing })
            }
        }
    }
}

impl Drop for EngineClient {
    /// Asks the engine to quit, and makes sure it does.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        for _ in 0..50 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
