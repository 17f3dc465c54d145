//! One arena game in flight: the state, the search of the player to move, and the game's own
//! random streams (so a game is the same whatever else is in flight).

use classical::GuardedSearch;
use std::sync::Mutex;

use games::{Game, GameOver, Move, State, Termination, Values, Variant};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

use super::clock::{self, PlayerWork, TimeControl, Turn};
use super::game::ArenaGame;
use super::player::{Kind, Leaves};
use super::seats;
use classical::alphabeta::AlphaBeta;
use classical::greedy::greedy_move;
use classical::rollout::MoveRollouts;
use engine::{EngineClient, Limits};
use games::GoalDistances;
use search::evaluator::{Evaluation, draw_values};
use search::lockstep::{self, Step};
use search::mcts::choose_action;
use search::mcts::{Leaf, MctsConfig, PlaySearch, Search, SearchError};

/// What the slots of a match share.
pub(crate) struct Table<'a> {
    /// The players' kinds, by player index.
    pub kinds: &'a [Kind],
    /// The engine process of each engine player, by player index.
    pub engines: &'a [Option<&'a Mutex<EngineClient>>],
    /// How the checkpoint players search.
    pub play: &'a PlaySearch,
    pub distances: &'a GoalDistances,
    pub max_moves: u32,
    /// Complete moves per random playout of the `mcts` players (a playout cut off is a draw).
    pub rollout_moves: usize,
    /// Each player's clock, by player index (`None`: a fixed budget).
    pub clocks: &'a [Option<TimeControl>],
    /// What each player did, by player index: every slot adds its moves.
    pub work: Mutex<Vec<PlayerWork>>,
}

impl Table<'_> {
    fn clock(&self, player: usize) -> Option<TimeControl> {
        self.clocks.get(player).copied().flatten()
    }
}

pub(crate) struct Slot<V: Variant> {
    game_id: u64,
    seed: u64,
    seating: Vec<usize>,
    start_position: String,
    state: State<V>,
    rng: StdRng,
    rollouts: MoveRollouts,
    /// The search of the move in progress (kept across its legs, dropped when it completes).
    search: Option<Search<State<V>>>,
    /// Each alpha-beta player's searcher, by player index (built on its first move, kept for
    /// the game: its table and move-ordering statistics carry over).
    alphabeta: Vec<Option<Box<AlphaBeta<V>>>>,
    moves: Vec<String>,
    over: Option<(Values, Termination)>,
    /// The time left on each player's clock, in milliseconds (by player index; unused
    /// without a clock).
    clock_left_ms: Vec<u64>,
    /// The move in progress (none during the random opening).
    turn: Option<Turn>,
}

impl<V: Variant> Slot<V> {
    /// Game `game_id` of a match seeded by `seed`: seated by [`seats::seating`], with its round's
    /// `opening_moves` uniformly random complete moves already played.
    pub fn new(
        game_id: u64,
        seed: u64,
        start: State<V>,
        opening_moves: u32,
        table: &Table<'_>,
    ) -> Self {
        let game_seed = seats::game_seed(seed, game_id);
        let mut slot = Slot {
            game_id,
            seed: game_seed,
            seating: seats::seating(V::NUM_PLAYERS, game_id),
            start_position: start.to_string(),
            state: start,
            rng: StdRng::seed_from_u64(game_seed),
            rollouts: MoveRollouts::new(table.rollout_moves, game_seed ^ 0x7011),
            search: None,
            alphabeta: (0..V::NUM_PLAYERS).map(|_| None).collect(),
            moves: Vec::new(),
            over: None,
            clock_left_ms: (0..V::NUM_PLAYERS)
                .map(|p| table.clock(p).map_or(0, |c| c.base_ms))
                .collect(),
            turn: None,
        };
        let mut opening = StdRng::seed_from_u64(seats::opening_seed(seed, V::NUM_PLAYERS, game_id));
        slot.check_end(table);
        for _ in 0..opening_moves {
            if slot.over.is_some() {
                break;
            }
            let Some(m) = slot.state.moves().choose(&mut opening).cloned() else { break };
            slot.play_move(&m, table);
        }
        slot
    }

    /// The player index of the seat to move.
    fn player_to_move(&self) -> usize {
        self.seating[self.state.to_move().index()]
    }

    /// Plays one leg (or end-move) chosen by a search.
    fn play_action(&mut self, action: games::Action, table: &Table<'_>) -> Result<(), SearchError> {
        if !self.state.is_legal(action) {
            return Err(SearchError::IllegalAction(self.state.action_to_string(action)));
        }
        self.state.play(action);
        match self.state.last_move() {
            Some(m) => {
                self.search = None;
                self.moves.push(m);
                self.end_turn(table);
                self.check_end(table);
            }
            None => {
                if let Some(search) = self.search.as_mut() {
                    search.advance(action)?;
                }
            }
        }
        Ok(())
    }

    /// The move of engine player `player`, asked from its process and checked by the rules
    /// (the referee): an answer that is not a legal move of the position stops the match with
    /// a message naming the engine, the move and the position.
    fn engine_move(&self, player: usize, table: &Table<'_>) -> Result<Move, SearchError> {
        let engine = table.engines[player].expect("an engine player has its process");
        let mut client = engine.lock().unwrap_or_else(|e| e.into_inner());
        // The mover's clock, under its seat's letter.
        let seat = V::PLAYER_LETTERS[self.state.to_move().index()];
        let clock =
            table.clock(player).map(|tc| tc.protocol_clock(seat, self.clock_left_ms[player]));
        let answer = client
            .best_move(&self.start_position, &self.moves, &Limits { clock, ..Limits::default() })
            .map_err(|e| SearchError::Player(e.to_string()))?;
        let illegal = |why: String| {
            SearchError::Player(format!(
                "engine `{}` played `{answer}` in {}: {why}",
                client.command(),
                self.state
            ))
        };
        let m = self.state.position().parse_move(&answer).map_err(|e| illegal(e.to_string()))?;
        if !self.state.moves().contains(&m) {
            return Err(illegal("not a legal move".into()));
        }
        Ok(m)
    }

    /// Plays a whole move (random, greedy and alpha-beta players, openings).
    fn play_move(&mut self, m: &Move, table: &Table<'_>) {
        self.state.play_move(m);
        self.search = None;
        self.moves.push(m.notation(&V::tables().geometry));
        self.end_turn(table);
        self.check_end(table);
    }

    /// Begins the move of `player` unless one is in progress: its clock starts.
    fn begin_turn(&mut self, player: usize, table: &Table<'_>) -> Turn {
        *self.turn.get_or_insert_with(|| {
            Turn::begin(player, table.clock(player).map(|tc| (tc, self.clock_left_ms[player])))
        })
    }

    /// Ends the move in progress (none in the opening): its time comes off its player's clock
    /// and the work it took is added to the player's.
    fn end_turn(&mut self, table: &Table<'_>) {
        let Some(turn) = self.turn.take() else { return };
        let took = turn.started.elapsed();
        let overran = table.clock(turn.player).is_some_and(|tc| {
            let (left, overran) = clock::after_move(tc, self.clock_left_ms[turn.player], took);
            self.clock_left_ms[turn.player] = left;
            overran
        });
        let mut work = table.work.lock().unwrap_or_else(|e| e.into_inner());
        work[turn.player].add(&turn, took, overran);
    }

    fn check_end(&mut self, table: &Table<'_>) {
        if let Some(GameOver { termination, .. }) = self.state.outcome() {
            let values = self.state.returns().unwrap_or_else(|| draw_values(V::NUM_PLAYERS));
            self.over = Some((values, termination));
        } else if self.moves.len() as u32 >= table.max_moves {
            self.over = Some((draw_values(V::NUM_PLAYERS), Termination::MoveLimit));
        }
    }
}

impl<'a, V: Variant> lockstep::Slot<Table<'a>> for Slot<V> {
    type Game = State<V>;
    type Finished = ArenaGame;

    /// Plays until player input from a network is needed or the game ends. Random, greedy and
    /// alpha-beta players move at once; a rollout player's leaves are evaluated here.
    fn step(&mut self, table: &Table<'a>) -> Result<Step<State<V>>, SearchError> {
        loop {
            if self.over.is_some() {
                return Ok(Step::Finished);
            }
            let player = self.player_to_move();
            let turn = self.begin_turn(player, table);
            match table.kinds[player] {
                Kind::Random => {
                    let m = self.state.moves().choose(&mut self.rng).cloned();
                    let m = m.ok_or(SearchError::GameOver)?;
                    self.play_move(&m, table);
                }
                Kind::Greedy => {
                    let m = greedy_move(&self.state, table.distances, &mut self.rng).cloned();
                    let m = m.ok_or(SearchError::GameOver)?;
                    self.play_move(&m, table);
                }
                Kind::Engine => {
                    let m = self.engine_move(player, table)?;
                    self.play_move(&m, table);
                }
                Kind::AlphaBeta(limits) => {
                    let searcher = self.alphabeta[player]
                        .get_or_insert_with(|| Box::new(AlphaBeta::new(limits)));
                    // On a clock, the move's share of it (and `ms=` when shorter).
                    searcher.set_time(limits.time.into_iter().chain(turn.time()).min());
                    let found = searcher.search(self.state.position());
                    let found = found.ok_or(SearchError::GameOver)?;
                    self.turn.as_mut().expect("begun").nodes += found.nodes;
                    self.play_move(&found.best, table);
                }
                Kind::Search { sims, leaves, draw } => {
                    if self.search.is_none() {
                        // The rollout players search as the anchors were rated, whatever
                        // the checkpoints' play search (with its tactics filter, if on).
                        let root = self.state.clone();
                        let mut search = match leaves {
                            Leaves::Rollouts { .. } => {
                                Search::new(root, MctsConfig::analysis(sims))?
                            }
                            Leaves::Network => table.play.search(root, sims)?,
                        };
                        search.set_draw_score(draw);
                        self.search = Some(search);
                    }
                    let search = self.search.as_mut().expect("just set");
                    if let Some(a) = search.forced_action() {
                        self.play_action(a, table)?;
                        continue;
                    }
                    // On a clock, a leg searched after the move's time gets one simulation.
                    let timed_out = turn.out_of_time() && search.simulations_done() >= 1;
                    if !search.is_done() && !timed_out {
                        let Some(leaf) = search.gather(&mut self.rng) else { continue };
                        let Leaves::Rollouts { cutoff } = leaves else {
                            return Ok(Step::Evaluate { evaluator: player, leaf });
                        };
                        let eval = self.rollouts.leaf(&leaf.state, cutoff);
                        search.apply(leaf, eval)?;
                        continue;
                    }
                    let summary = search.summary()?;
                    let action =
                        choose_action(&summary, 0.0, &mut self.rng).ok_or(SearchError::GameOver)?;
                    self.turn.as_mut().expect("begun").simulations +=
                        u64::from(summary.simulations);
                    self.play_action(action, table)?;
                }
            }
        }
    }

    /// Hands a network evaluation back to the search that asked for it (whose root filter,
    /// the play search's tactics filter when on, runs here: in parallel across games). Only
    /// the root is filtered: filtering every node the search expands scored alike within the
    /// noise at 5 times the time (docs/results.md, "The tactics filter at play").
    fn apply(&mut self, leaf: Leaf<State<V>>, eval: Evaluation) -> Result<(), SearchError> {
        self.search.as_mut().ok_or(SearchError::StaleLeaf)?.apply(leaf, eval)
    }

    /// The finished game (call after [`Step::Finished`]).
    fn finish(self) -> ArenaGame {
        let (values, termination) =
            self.over.unwrap_or((draw_values(V::NUM_PLAYERS), Termination::MoveLimit));
        ArenaGame {
            game_id: self.game_id,
            seed: self.seed,
            seating: self.seating,
            start_position: self.start_position,
            moves: self.moves,
            result: values.0[..V::NUM_PLAYERS].to_vec(),
            termination,
        }
    }
}
