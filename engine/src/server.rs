//! The engine side of the protocol: reads commands line by line, answers on the output, and
//! keeps running whatever it is sent (a malformed or illegal command is answered
//! `error <reason>`); the end of the input or `quit` ends it.
//!
//! The input is read on its own thread, so while a `go` searches, `stop` ends it and `isready`
//! is answered at once; other commands sent meanwhile wait their turn. Analysis requests that
//! arrive together are searched together: one batched evaluation per round for all of them.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver};

use games::{
    CamelotRules, KnightCanter, RuleOptions, State, TriCamelotRules, Variant, VariantKind,
};

use super::protocol::{self, AnalysisRequest, Command, Limits, MAX_SIMS, Start};
use super::session::{Poll, Session, analyze_batch};
use search::evaluator::Evaluator;
use search::mcts::PlaySearch;

/// Where the engine's evaluators come from (a checkpoint, or none: uniform priors).
pub trait EvaluatorSource {
    /// An evaluator for variant `V` (asked once per variant, then kept); the error says why
    /// there is none (a checkpoint of the other game, say).
    fn evaluator<V: Variant>(&self) -> Result<Box<dyn Evaluator<State<V>>>, String>;
    /// The `model` option's value: what evaluates positions.
    fn model(&self) -> String;
    /// Switches to another model (`setoption name model value <dir>`; `none` for uniform
    /// priors).
    fn set_model(&mut self, model: &str) -> Result<(), String>;
}

/// The engine's name, version and default budget.
#[derive(Clone, Debug)]
pub struct EngineInfo {
    pub name: String,
    pub version: String,
    /// Simulations per leg when `go` gives no budget (the `sims` option).
    pub sims: u32,
    /// The game before any `newgame` (the model's, say).
    pub variant: VariantKind,
    /// How the engine searches (the `[play]` section of a run config; its defaults without
    /// one).
    pub play: PlaySearch,
}

/// The game in progress.
enum Game {
    Camelot(Session<CamelotRules>),
    Tricamelot(Session<TriCamelotRules>),
}

impl Game {
    fn new(variant: VariantKind, options: RuleOptions, play: PlaySearch) -> Game {
        match variant {
            VariantKind::Camelot => Game::Camelot(Session::new(options, play)),
            VariantKind::Tricamelot => Game::Tricamelot(Session::new(options, play)),
        }
    }

    fn variant(&self) -> VariantKind {
        match self {
            Game::Camelot(_) => VariantKind::Camelot,
            Game::Tricamelot(_) => VariantKind::Tricamelot,
        }
    }
}

/// A line from the reader thread; `None` at the end of the input.
type Line = Option<String>;

struct Engine<S: EvaluatorSource, W: Write> {
    source: S,
    info: EngineInfo,
    out: RefCell<W>,
    lines: Receiver<Line>,
    /// Lines read while searching, to handle after.
    queue: VecDeque<Line>,
    game: Game,
    knight_canter: KnightCanter,
    camelot: Option<Box<dyn Evaluator<State<CamelotRules>>>>,
    tricamelot: Option<Box<dyn Evaluator<State<TriCamelotRules>>>>,
}

/// Serves the protocol on `input` and `output` until `quit` or the end of the input. Returns
/// an error only when the output cannot be written (the client is gone).
pub fn serve<S: EvaluatorSource>(
    source: S,
    info: EngineInfo,
    input: impl BufRead + Send + 'static,
    output: impl Write,
) -> io::Result<()> {
    let (tx, rx) = mpsc::channel::<Line>();
    std::thread::spawn(move || {
        for line in input.lines() {
            // A line that is not UTF-8 is passed on as text that fails to parse.
            let line = line.unwrap_or_else(|_| "\u{fffd}".into());
            if tx.send(Some(line)).is_err() {
                return;
            }
        }
        let _ = tx.send(None);
    });
    let (variant, play) = (info.variant, info.play);
    let mut engine = Engine {
        source,
        info,
        out: RefCell::new(output),
        lines: rx,
        queue: VecDeque::new(),
        game: Game::new(variant, RuleOptions::default(), play),
        knight_canter: KnightCanter::default(),
        camelot: None,
        tricamelot: None,
    };
    engine.run()
}

impl<S: EvaluatorSource, W: Write> Engine<S, W> {
    fn say(&self, line: &str) -> io::Result<()> {
        let mut out = self.out.borrow_mut();
        writeln!(out, "{line}")?;
        out.flush()
    }

    fn next_line(&mut self) -> Line {
        match self.queue.pop_front() {
            Some(line) => line,
            None => self.lines.recv().unwrap_or(None),
        }
    }

    fn run(&mut self) -> io::Result<()> {
        while let Some(line) = self.next_line() {
            match protocol::parse(&line) {
                Ok(None) => {}
                Ok(Some(Command::Quit)) => return Ok(()),
                Ok(Some(command)) => {
                    if let Err(e) = self.handle(command)? {
                        self.say(&format!("error {e}"))?;
                    }
                }
                Err(e) => self.say(&format!("error {e}"))?,
            }
        }
        Ok(())
    }

    /// Handles one command; the inner error is answered `error <it>`.
    fn handle(&mut self, command: Command) -> io::Result<Result<(), String>> {
        match command {
            Command::Hello => {
                self.say(&format!("id name {}", self.info.name))?;
                self.say(&format!("id version {}", self.info.version))?;
                self.say(&format!(
                    "option name sims type spin default {} min 1 max {MAX_SIMS}",
                    self.info.sims
                ))?;
                self.say(&format!(
                    "option name model type string default {}",
                    self.source.model()
                ))?;
                self.say("czpok")?;
            }
            Command::IsReady => self.say("readyok")?,
            Command::Stop | Command::PonderHit => {} // nothing is searching
            Command::SetOption { name, value } => return Ok(self.set_option(&name, &value)),
            Command::NewGame { variant, knight_canter } => {
                self.knight_canter = knight_canter;
                self.game = Game::new(variant, RuleOptions { knight_canter }, self.info.play);
            }
            Command::Position { start, moves } => return Ok(self.set_position(&start, &moves)),
            Command::Legal => {
                let legal = match &self.game {
                    Game::Camelot(s) => s.legal(),
                    Game::Tricamelot(s) => s.legal(),
                };
                self.say(format!("legal {}", legal.join(" ")).trim_end())?;
            }
            Command::Result => {
                let result = match &self.game {
                    Game::Camelot(s) => s.result(),
                    Game::Tricamelot(s) => s.result(),
                };
                self.say(&format!("result {result}"))?;
            }
            Command::GetPosition => {
                let position = match &self.game {
                    Game::Camelot(s) => s.position(),
                    Game::Tricamelot(s) => s.position(),
                };
                self.say(&format!("position {position}"))?;
            }
            Command::Go(limits) => {
                return match self.go(limits)? {
                    Ok(m) => self.say(&format!("bestmove {m}")).map(Ok),
                    Err(e) => Ok(Err(e)),
                };
            }
            Command::Analyze(request) => self.analyze(*request)?,
            Command::Quit => {}
        }
        Ok(Ok(()))
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "sims" => match value.parse::<u32>() {
                Ok(n) if (1..=MAX_SIMS).contains(&n) => self.info.sims = n,
                _ => return Err(format!("sims must be a whole number from 1 to {MAX_SIMS}")),
            },
            "model" => {
                self.source.set_model(value)?;
                self.camelot = None;
                self.tricamelot = None;
                match &mut self.game {
                    Game::Camelot(s) => s.forget_search(),
                    Game::Tricamelot(s) => s.forget_search(),
                }
            }
            _ => return Err(format!("unknown option `{name}` (options: sims, model)")),
        }
        Ok(())
    }

    fn set_position(&mut self, start: &Start, moves: &[String]) -> Result<(), String> {
        // A position string names its variant: the game follows it.
        if let Start::Text(text) = start {
            let named = text.split_whitespace().next().unwrap_or("");
            let variant: VariantKind =
                named.parse().map_err(|e: games::UnknownName| e.to_string())?;
            if variant != self.game.variant() {
                let options = RuleOptions { knight_canter: self.knight_canter };
                self.game = Game::new(variant, options, self.info.play);
            }
        }
        match &mut self.game {
            Game::Camelot(s) => s.set_position(start, moves),
            Game::Tricamelot(s) => s.set_position(start, moves),
        }
    }

    /// Searches the current position; `stop` and `isready` are handled while it runs.
    fn go(&mut self, limits: Limits) -> io::Result<Result<String, String>> {
        let Engine { source, info, out, lines, queue, game, camelot, tricamelot, .. } = self;
        let write_error = RefCell::new(None);
        let say = |line: String| {
            let mut out = out.borrow_mut();
            if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                write_error.borrow_mut().get_or_insert(e);
            }
        };
        let mut stop = || {
            let mut poll = Poll::Continue;
            while let Ok(line) = lines.try_recv() {
                match line.as_deref().map(str::trim) {
                    Some("stop") => poll = Poll::Stop,
                    Some("ponderhit") if poll == Poll::Continue => poll = Poll::PonderHit,
                    Some("ponderhit") => {}
                    Some("isready") => say("readyok".into()),
                    // The end of the input (like any other command) waits for the search: a
                    // piped script gets its whole answer before the engine exits.
                    None | Some(_) => queue.push_back(line),
                }
            }
            poll
        };
        let mut info_line = |line: String| say(line);
        let result = match game {
            Game::Camelot(s) => match evaluator(source, camelot) {
                Ok(e) => s.think(e.as_mut(), &limits, info.sims, &mut stop, &mut info_line),
                Err(e) => Err(e),
            },
            Game::Tricamelot(s) => match evaluator(source, tricamelot) {
                Ok(e) => s.think(e.as_mut(), &limits, info.sims, &mut stop, &mut info_line),
                Err(e) => Err(e),
            },
        };
        match write_error.into_inner() {
            Some(e) => Err(e),
            None => Ok(result),
        }
    }

    /// Answers `first` and every analysis request already waiting behind it, searched together
    /// (one batched evaluation per round for each variant), in the order they came.
    fn analyze(&mut self, first: AnalysisRequest) -> io::Result<()> {
        while let Ok(line) = self.lines.try_recv() {
            self.queue.push_back(line);
        }
        let mut requests = vec![first];
        while let Some(Some(line)) = self.queue.front() {
            match protocol::parse(line) {
                Ok(Some(Command::Analyze(r))) => {
                    requests.push(*r);
                    self.queue.pop_front();
                }
                _ => break,
            }
        }
        let variant_of = |r: &AnalysisRequest| -> Result<VariantKind, String> {
            match r.position.as_str() {
                "startpos" => Ok(r.variant.unwrap_or(self.game.variant())),
                text => {
                    let named = text.split_whitespace().next().unwrap_or("");
                    named.parse().map_err(|e: games::UnknownName| e.to_string())
                }
            }
        };
        let variants: Vec<Result<VariantKind, String>> = requests.iter().map(variant_of).collect();
        let mut answers: Vec<Option<serde_json::Value>> = vec![None; requests.len()];
        for kind in VariantKind::ALL {
            let indices: Vec<usize> =
                (0..requests.len()).filter(|&i| variants[i].as_ref() == Ok(&kind)).collect();
            if indices.is_empty() {
                continue;
            }
            let batch: Vec<&AnalysisRequest> = indices.iter().map(|&i| &requests[i]).collect();
            let (sims, play) = (self.info.sims, &self.info.play);
            let results = match kind {
                VariantKind::Camelot => evaluator(&self.source, &mut self.camelot)
                    .map(|e| analyze_batch::<CamelotRules>(&batch, e.as_mut(), sims, play)),
                VariantKind::Tricamelot => evaluator(&self.source, &mut self.tricamelot)
                    .map(|e| analyze_batch::<TriCamelotRules>(&batch, e.as_mut(), sims, play)),
            };
            for (k, &i) in indices.iter().enumerate() {
                answers[i] = Some(match &results {
                    Ok(values) => values[k].clone(),
                    Err(e) => serde_json::json!({ "id": requests[i].id, "error": e }),
                });
            }
        }
        for (i, answer) in answers.into_iter().enumerate() {
            let answer = answer.unwrap_or_else(|| {
                let e = variants[i].as_ref().err().cloned().unwrap_or_default();
                serde_json::json!({ "id": requests[i].id, "error": e })
            });
            self.say(&answer.to_string())?;
        }
        Ok(())
    }
}

/// The kept evaluator of a variant, asked from `source` the first time.
fn evaluator<'a, S: EvaluatorSource, V: Variant>(
    source: &S,
    slot: &'a mut Option<Box<dyn Evaluator<State<V>>>>,
) -> Result<&'a mut Box<dyn Evaluator<State<V>>>, String> {
    if slot.is_none() {
        *slot = Some(source.evaluator::<V>()?);
    }
    Ok(slot.as_mut().expect("just set"))
}
