//! One game of one variant as the engine holds it: the position the client set, and the
//! searches the engine runs on it (`go`: a complete move under a budget; analyses: many
//! positions searched together, their leaves evaluated in one batch per round).

use classical::GuardedSearch;
use std::time::{Duration, Instant};

use games::{Game, Outcome, Player, RuleOptions, State, Values, Variant};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};

use super::protocol::{AnalysisRequest, Limits, Start};
use super::time_control::move_time_ms;
use search::evaluator::Evaluator;
use search::mcts::analysis::principal_line;
use search::mcts::{
    Analysis, NodeId, PlaySearch, Search, SearchKind, SearchSummary, choose_action,
};

/// Simulations a leg gets at least when a `go` is stopped or out of time (so the move played is
/// a searched one, not the first legal leg).
pub const MIN_SIMS: u32 = 8;

/// A game of variant `V`: the start the client gave, the moves after it, the current state,
/// and how it is searched.
pub struct Session<V: Variant> {
    options: RuleOptions,
    current: State<V>,
    rng: StdRng,
    play: PlaySearch,
    /// The search of the engine's last move, advanced along the moves played since as long as
    /// they stayed inside its tree: the next `go` from that position starts from its visits
    /// (tree reuse). `None` once the game left the tree, or the model changed.
    kept: Option<Search<State<V>>>,
}

/// What the client sent while a search ran (the lines it polls for; others wait their turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Poll {
    /// Nothing for the search: go on.
    Continue,
    /// `stop`: answer now.
    Stop,
    /// `ponderhit`: the move pondered on was played; the budgets start now.
    PonderHit,
}

/// How a search in progress asks what the client sent ([`Poll`]).
pub type StopPoll<'a> = dyn FnMut() -> Poll + 'a;

impl<V: Variant> Session<V> {
    /// A new game from the start position, searched with `play`.
    pub fn new(options: RuleOptions, play: PlaySearch) -> Self {
        let current = State::start_with(options);
        Session { options, current, rng: StdRng::seed_from_u64(0), play, kept: None }
    }

    /// Sets the position: `start` then the complete `moves`, each checked by the rules. The
    /// kept search follows the moves played after its root, while they stay in its tree.
    pub fn set_position(&mut self, start: &Start, moves: &[String]) -> Result<(), String> {
        let mut states = Vec::with_capacity(moves.len() + 1);
        states.push(state_of::<V>(start, &[], self.options)?);
        for (i, m) in moves.iter().enumerate() {
            let next = states[i].after_move(m).map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
            states.push(next);
        }
        self.kept = self.kept.take().and_then(|kept| follow(kept, &states, moves));
        self.current = states.pop().expect("the start state");
        Ok(())
    }

    /// Forgets the kept search (its values are another model's).
    pub fn forget_search(&mut self) {
        self.kept = None;
    }

    /// The visits the next `go` starts from: those of the kept search's root when it is the
    /// current position, else 0.
    pub fn reused_visits(&self) -> u32 {
        self.kept
            .as_ref()
            .filter(|s| same_state(s.root_state(), &self.current))
            .map_or(0, |s| s.tree().node(NodeId::ROOT).n)
    }

    /// The legal moves (the continuations of a move in progress), sorted.
    pub fn legal(&self) -> Vec<String> {
        let pos = self.current.position();
        let mut list: Vec<String> = self.current.continuations().map(|m| pos.notation(m)).collect();
        list.sort();
        list
    }

    /// `none`, or the per-seat result and how the game ended.
    pub fn result(&self) -> String {
        match self.current.outcome() {
            None => "none".into(),
            Some(over) => {
                let values = over.outcome.values(V::NUM_PLAYERS);
                let winner = match over.outcome {
                    Outcome::Win(p) => format!(" winner {}", V::PLAYER_LETTERS[p.index()]),
                    Outcome::Draw => " draw".into(),
                };
                format!("{}{winner} {}", seats::<V>(&values), over.termination)
            }
        }
    }

    /// The current position string.
    pub fn position(&self) -> String {
        self.current.to_string()
    }

    /// Searches the mover's complete move: per leg, `limits.sims` simulations (or
    /// `default_sims`), within `limits.time_ms` and the mover's share of `limits.clock`
    /// ([`move_time_ms`]) for the whole move, or until `stop` when `limits.infinite`; `stop`
    /// is polled between simulations. With `limits.ponder` the search has no end until
    /// `ponderhit` (then the budgets apply, the time counted from it) or `stop`. While a leg is searched, an `info ...` line reports it to
    /// `info` every [`INFO_EVERY`], and once more when its search ends. Returns the move in
    /// official notation (also played on no board: the position stays for the client to set).
    pub fn think(
        &mut self,
        evaluator: &mut (impl Evaluator<State<V>> + ?Sized),
        limits: &Limits,
        default_sims: u32,
        stop: &mut StopPoll<'_>,
        info: &mut dyn FnMut(String),
    ) -> Result<String, String> {
        if self.current.outcome().is_some() {
            return Err("the game is over: no move to search".into());
        }
        let started = Instant::now();
        let mover = V::PLAYER_LETTERS[self.current.to_move().index()];
        let clock_ms = limits.clock.as_ref().map(|c| move_time_ms(c, mover)).transpose()?;
        let move_ms = limits.time_ms.into_iter().chain(clock_ms).min();
        let deadline_from = |t0: Instant| move_ms.map(|t| t0 + Duration::from_millis(t));
        // While pondering nothing ends the search but `ponderhit` or `stop`.
        let mut pondering = limits.ponder;
        let mut deadline = if pondering { None } else { deadline_from(started) };
        let budget = match limits.sims {
            Some(n) => n,
            None if move_ms.is_some() || limits.infinite => super::protocol::MAX_SIMS,
            None => default_sims,
        };
        let sims = if pondering { super::protocol::MAX_SIMS } else { budget };
        let mut state = self.current.clone();
        let mut search = match self.kept.take().filter(|s| same_state(s.root_state(), &state)) {
            Some(kept) => kept,
            None => self.play.search(state.clone(), sims).map_err(|e| e.to_string())?,
        };
        let mut stopped = false;
        for leg in 1.. {
            // A kept search, and every leg after `advance`, would have the budget the search
            // was made with.
            search.set_budget(if pondering { sims } else { budget }, SearchKind::Full);
            let action = match search.forced_action() {
                Some(a) => a,
                None => {
                    let mut reported = Instant::now();
                    while !search.is_done() {
                        // Past the move's time a leg takes one simulation: the reserve of the
                        // clock is for the answer, not for more search.
                        let out_of_time = deadline.is_some_and(|d| Instant::now() >= d);
                        let done = search.simulations_done();
                        if (out_of_time && done >= 1) || (stopped && done >= MIN_SIMS) {
                            break;
                        }
                        if let Some(leaf) = search.gather(&mut self.rng) {
                            let eval =
                                evaluator.evaluate(std::slice::from_ref(&leaf.state)).remove(0);
                            search.apply(leaf, eval).map_err(|e| e.to_string())?;
                        }
                        if search.simulations_done() % 16 == 0 && !stopped {
                            match stop() {
                                Poll::Continue => {}
                                Poll::Stop => stopped = true,
                                Poll::PonderHit if pondering => {
                                    pondering = false;
                                    deadline = deadline_from(Instant::now());
                                    search.set_budget(budget, SearchKind::Full);
                                }
                                Poll::PonderHit => {}
                            }
                        }
                        if reported.elapsed() >= INFO_EVERY {
                            reported = Instant::now();
                            // None before the root's first evaluation.
                            if let Ok(summary) = search.summary() {
                                info(info_line(&search, &summary, leg, started));
                            }
                        }
                    }
                    let summary = search.summary().map_err(|e| e.to_string())?;
                    info(info_line(&search, &summary, leg, started));
                    choose_action(&summary, 0.0, &mut self.rng).ok_or("no legal action")?
                }
            };
            state.play(action);
            let advanced = search.advance(action).map_err(|e| e.to_string());
            if let Some(m) = state.last_move() {
                // The tree below the move played is kept for the next move.
                self.kept = advanced.is_ok().then_some(search);
                return Ok(m);
            }
            advanced?;
        }
        unreachable!("a move ends after finitely many legs")
    }
}

/// Whether two states are the same position with the same legs of a move in progress.
fn same_state<V: Variant>(a: &State<V>, b: &State<V>) -> bool {
    a.position() == b.position() && a.landed() == b.landed()
}

/// `kept` advanced from its root to the end of `moves`: `states[i]` is the state before
/// `moves[i]` (and the last one after them all). The root is looked for among the states, the
/// latest first; `None` when it is not one of them or a move leaves the tree's actions.
fn follow<V: Variant>(
    mut kept: Search<State<V>>,
    states: &[State<V>],
    moves: &[String],
) -> Option<Search<State<V>>> {
    let from = states.iter().rposition(|s| same_state(s, kept.root_state()))?;
    let mut state = states[from].clone();
    for m in &moves[from..] {
        let complete = state.position().parse_move(m).ok()?;
        loop {
            let action = state.next_action(&complete);
            kept.advance(action).ok()?;
            state.play(action);
            if state.last_move().is_some() {
                break;
            }
        }
    }
    Some(kept)
}

/// How often a leg's search in progress is reported.
pub const INFO_EVERY: Duration = Duration::from_millis(500);

/// The `info` line of leg `leg` of a move whose search started at `started`, `summary` its
/// summary now: its simulations, the root's visits (its first evaluation and every simulation
/// through it, those of earlier moves included where the tree was kept), time, speed, the
/// mover, each seat's value and the principal variation.
fn info_line<V: Variant>(
    search: &Search<State<V>>,
    summary: &SearchSummary<<State<V> as Game>::Action>,
    leg: u32,
    started: Instant,
) -> String {
    let mover = search.root_state().to_move();
    let line = principal_line(search.root_state(), search.tree(), None);
    let ms = started.elapsed().as_millis();
    format!(
        "info leg {leg} sims {} visits {} time_ms {ms} nps {} seat {} values {} pv {}",
        summary.simulations,
        search.tree().node(NodeId::ROOT).n,
        u128::from(summary.simulations) * 1000 / ms.max(1),
        V::PLAYER_LETTERS[mover.index()],
        seats::<V>(&summary.root_values),
        pv::<V>(&line)
    )
}

/// The state of `start` after `moves` (checked by the rules).
pub fn state_of<V: Variant>(
    start: &Start,
    moves: &[String],
    options: RuleOptions,
) -> Result<State<V>, String> {
    let mut state = match start {
        Start::StartPos => State::start_with(options),
        Start::Text(s) => {
            State::parse_with(s, options).map_err(|e| format!("bad position: {e}"))?
        }
    };
    for (i, m) in moves.iter().enumerate() {
        state = state.after_move(m).map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
    }
    Ok(state)
}

/// Per-seat values as `W=0.612 B=0.388`.
pub fn seats<V: Variant>(values: &Values) -> String {
    (0..V::NUM_PLAYERS)
        .map(|p| format!("{}={:.3}", V::PLAYER_LETTERS[p], values.0[p]))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A principal line as `W:C6-B5 B:J11-J10`.
fn pv<V: Variant>(line: &[(Player, String)]) -> String {
    line.iter()
        .map(|(p, m)| format!("{}:{m}", V::PLAYER_LETTERS[p.index()]))
        .collect::<Vec<_>>()
        .join(" ")
}

fn seat_map<V: Variant>(values: &Values) -> Value {
    let map: serde_json::Map<String, Value> = (0..V::NUM_PLAYERS)
        .map(|p| (V::PLAYER_LETTERS[p].to_string(), json!(round(values.0[p]))))
        .collect();
    Value::Object(map)
}

fn round(x: f32) -> f64 {
    (f64::from(x) * 1e6).round() / 1e6
}

/// Analyses positions of variant `V` together, each searched with `play`: every search gathers
/// a leaf, the leaves go to `evaluator` in one call, and so on until every search has its
/// simulations. Returns one JSON answer per request, in order (an answer with an `error` field
/// for a request that cannot be searched).
pub fn analyze_batch<V: Variant>(
    requests: &[&AnalysisRequest],
    evaluator: &mut (impl Evaluator<State<V>> + ?Sized),
    default_sims: u32,
    play: &PlaySearch,
) -> Vec<Value> {
    struct Job<V: Variant> {
        search: Search<State<V>>,
        rng: StdRng,
    }
    let mut jobs: Vec<Result<Job<V>, String>> = requests
        .iter()
        .map(|r| {
            let options = RuleOptions { knight_canter: r.knight_canter.unwrap_or_default() };
            let start = if r.position == "startpos" {
                Start::StartPos
            } else {
                Start::Text(r.position.clone())
            };
            let state = state_of::<V>(&start, &r.moves, options)?;
            if state.outcome().is_some() {
                return Err("the game is over at this position".into());
            }
            let sims = r.sims.unwrap_or(default_sims).clamp(1, super::protocol::MAX_SIMS);
            let search = play.search(state, sims).map_err(|e| e.to_string())?;
            Ok(Job { search, rng: StdRng::seed_from_u64(0) })
        })
        .collect();
    loop {
        let mut leaves = Vec::new();
        for (i, job) in jobs.iter_mut().enumerate() {
            if let Ok(job) = job
                && !job.search.is_done()
                && let Some(leaf) = job.search.gather(&mut job.rng)
            {
                leaves.push((i, leaf));
            }
        }
        let busy = jobs.iter().any(|j| j.as_ref().is_ok_and(|j| !j.search.is_done()));
        if leaves.is_empty() {
            if busy {
                continue; // searches whose simulations all ended in finished games
            }
            break;
        }
        let states: Vec<State<V>> = leaves.iter().map(|(_, l)| l.state.clone()).collect();
        let evals = evaluator.evaluate(&states);
        for ((i, leaf), eval) in leaves.into_iter().zip(evals) {
            if let Ok(job) = &mut jobs[i]
                && let Err(e) = job.search.apply(leaf, eval)
            {
                jobs[i] = Err(e.to_string());
            }
        }
    }
    requests
        .iter()
        .zip(jobs)
        .map(|(r, job)| match job {
            Err(e) => json!({ "id": r.id, "error": e }),
            Ok(job) => answer::<V>(r, &job.search),
        })
        .collect()
}

fn answer<V: Variant>(request: &AnalysisRequest, search: &Search<State<V>>) -> Value {
    let summary = match search.summary() {
        Ok(s) => s,
        Err(e) => return json!({ "id": request.id, "error": e.to_string() }),
    };
    let analysis = Analysis::new(search, &summary);
    let root = search.root_state();
    let tree = search.tree();
    let top = request.top.unwrap_or(20);
    let moves: Vec<Value> = analysis
        .actions
        .iter()
        .take(top)
        .map(|line| {
            let i = summary.actions.iter().position(|a| *a == line.action).expect("a root action");
            let child = tree.child(NodeId::ROOT, i);
            let through = principal_line(root, tree, Some(child));
            json!({
                "leg": root.action_to_string(line.action),
                "move": through.first().map(|(_, m)| m.clone()),
                "visits": line.visits,
                "prior": round(line.prior),
                "values": line.values.as_ref().map(seat_map::<V>),
            })
        })
        .collect();
    let line = principal_line(root, tree, None);
    json!({
        "id": request.id,
        "variant": V::NAME,
        "position": root.to_string(),
        "turn": V::PLAYER_LETTERS[root.to_move().index()].to_string(),
        "simulations": summary.simulations,
        "rootValues": seat_map::<V>(&summary.root_values),
        "networkValues": seat_map::<V>(&summary.net_values),
        "moves": moves,
        "pv": line.iter().map(|(p, m)| format!("{}:{m}", V::PLAYER_LETTERS[p.index()])).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::CamelotRules;
    use search::UniformEvaluator;

    /// The move searched with `sims` simulations a leg, and the last `info` line of its first
    /// leg.
    fn think(session: &mut Session<CamelotRules>, sims: u32) -> (String, String) {
        let limits = Limits { sims: Some(sims), ..Limits::default() };
        let mut lines = Vec::new();
        let mv = session
            .think(&mut UniformEvaluator, &limits, 64, &mut || Poll::Continue, &mut |l| {
                lines.push(l)
            })
            .unwrap();
        let first = lines.into_iter().rfind(|l| l.starts_with("info leg 1 "));
        (mv, first.expect("the first leg is searched"))
    }

    /// The `visits` of an info line.
    fn visits(line: &str) -> u32 {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "visits").expect("a visits field");
        words[at + 1].parse().unwrap()
    }

    /// The visits of the node `reply` leads to from the root of the kept search.
    fn visits_after(session: &Session<CamelotRules>, reply: &str) -> u32 {
        let kept = session.kept.as_ref().unwrap();
        let (tree, mut state) = (kept.tree(), kept.root_state().clone());
        let complete = state.position().parse_move(reply).unwrap();
        let mut node = NodeId::ROOT;
        loop {
            let action = state.next_action(&complete);
            node = tree.children(node).find(|&c| tree.node(c).action == Some(action)).unwrap();
            state.play(action);
            if state.last_move().is_some() {
                return tree.node(node).n;
            }
        }
    }

    /// The opponent's most visited reply in the kept search.
    fn likely_reply(session: &Session<CamelotRules>) -> String {
        let kept = session.kept.as_ref().expect("the search of the move is kept");
        let reply = principal_line(kept.root_state(), kept.tree(), None)[0].1.clone();
        assert!(!reply.contains('('), "a complete reply: {reply}");
        reply
    }

    #[test]
    fn a_pondering_search_ends_only_after_ponderhit_then_by_its_budget() {
        let mut session =
            Session::<CamelotRules>::new(RuleOptions::default(), PlaySearch::default());
        // 50 simulations once the move is played; 20 polls (every 16 simulations) before it is.
        let limits = Limits { sims: Some(50), ponder: true, ..Limits::default() };
        let mut polls = 0;
        let mut poll = || {
            polls += 1;
            if polls >= 20 { Poll::PonderHit } else { Poll::Continue }
        };
        let mut lines = Vec::new();
        let mv = session
            .think(&mut UniformEvaluator, &limits, 64, &mut poll, &mut |l| lines.push(l))
            .unwrap();
        let first = lines.into_iter().rfind(|l| l.starts_with("info leg 1 ")).unwrap();
        // The budget of 50 did not end the ponder: the search ran to the `ponderhit`.
        assert!(visits(&first) > 300, "{first}");
        assert!(State::<CamelotRules>::initial().after_move(&mv).is_ok());

        // `stop` ends a ponder too, at once.
        let mut session =
            Session::<CamelotRules>::new(RuleOptions::default(), PlaySearch::default());
        let mut polls = 0;
        let mut poll = || {
            polls += 1;
            if polls >= 3 { Poll::Stop } else { Poll::Continue }
        };
        let mut lines = Vec::new();
        session
            .think(&mut UniformEvaluator, &limits, 64, &mut poll, &mut |l| lines.push(l))
            .unwrap();
        let first = lines.into_iter().rfind(|l| l.starts_with("info leg 1 ")).unwrap();
        assert!(visits(&first) < 100, "{first}");
    }

    #[test]
    fn the_tree_is_kept_when_the_reply_was_searched_and_dropped_when_not() {
        let play = PlaySearch::default();
        let mut session = Session::<CamelotRules>::new(RuleOptions::default(), play);
        let (mine, line) = think(&mut session, 400);
        // A fresh root's visits: its first evaluation and the simulations through it.
        assert_eq!(visits(&line), 401, "a fresh search: {line}");
        let reply = likely_reply(&session);
        let expected = visits_after(&session, &reply);
        assert!(expected > 0);
        session.set_position(&Start::StartPos, &[mine, reply]).unwrap();
        assert_eq!(session.reused_visits(), expected);
        let (_, line) = think(&mut session, 100);
        assert_eq!(visits(&line), expected + 100, "the kept visits and this move's: {line}");
        assert!(line.contains("sims 100 "), "{line}");

        // A position outside the tree starts afresh.
        let mut session = Session::<CamelotRules>::new(RuleOptions::default(), play);
        let (mine, _) = think(&mut session, 50);
        let other = session.legal().into_iter().find(|m| *m != mine).unwrap();
        session.set_position(&Start::StartPos, &[other]).unwrap();
        assert_eq!(session.reused_visits(), 0);
        let (_, line) = think(&mut session, 30);
        assert_eq!(visits(&line), 31);

        // So does a position in the tree once the model changed.
        let mut session = Session::<CamelotRules>::new(RuleOptions::default(), play);
        let (mine, _) = think(&mut session, 200);
        let reply = likely_reply(&session);
        session.forget_search();
        session.set_position(&Start::StartPos, &[mine, reply]).unwrap();
        assert_eq!(session.reused_visits(), 0);
    }
}
