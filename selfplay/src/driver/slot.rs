//! One self-play game in flight: its search (which holds the game state), its records so far,
//! and its random stream.

use games::{Game, Outcome, Player, Termination};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::config::{PlayoutCap, Resign, SelfPlayConfig};
use super::played::{Ending, PlayedGame};
use super::sparring::{BoxedSparrer, SparMove};
use records::PositionRow;
use search::evaluator::Evaluation;
use search::lockstep::{self, Step};
use search::mcts::{Leaf, MctsConfig, RootFilter, Search, SearchError, SearchKind, choose_action};

pub(crate) struct Slot<G: Game> {
    search: Search<G>,
    rng: StdRng,
    /// The game so far; its `result` and the positions' `result` are set by [`Slot::finish`].
    log: PlayedGame,
    /// Resignation disabled in this game (play-through), decided at its start.
    playthrough: bool,
    over: Option<Ending>,
    /// The classical player at one seat, if this game has one.
    sparrer: Option<BoxedSparrer<G>>,
}

/// A game's seed from the session seed and its id (splitmix64, so nearby ids are unrelated).
pub(crate) fn game_seed(seed: u64, game_id: u64) -> u64 {
    games::seed::mix(seed, game_id)
}

impl<G: Game> Slot<G> {
    pub fn new(
        start: G,
        game_id: u64,
        seed: u64,
        mcts: &MctsConfig,
        config: &SelfPlayConfig,
        root_filter: Option<Box<dyn RootFilter<G>>>,
    ) -> Result<Self, SearchError> {
        let seed = game_seed(seed, game_id);
        let mut rng = StdRng::seed_from_u64(seed);
        let playthrough = match config.resign {
            Resign::Off => false,
            Resign::Threshold { playthrough_fraction, .. } => {
                rng.random::<f32>() < playthrough_fraction
            }
        };
        let start = config.start.pick(start, &mut rng);
        let log = PlayedGame::start(game_id, seed, &start, String::new());
        let mut search = Search::new(start, mcts.clone())?;
        search.set_draw_score(config.draw_score);
        if let Some(filter) = root_filter {
            search.set_root_filter(filter);
        }
        let mut slot = Slot { search, rng, log, playthrough, over: None, sparrer: None };
        slot.check_end(config);
        slot.set_budget(config);
        Ok(slot)
    }

    /// Gives the game a classical player at `sparrer`'s seat: its moves are played without a
    /// search, its rows are its targets.
    pub fn set_sparrer(&mut self, sparrer: BoxedSparrer<G>) {
        self.log.sparring = Some((sparrer.seat(), sparrer.name()));
        self.sparrer = Some(sparrer);
    }

    /// Whether the sparring partner is to move.
    fn sparrer_to_move(&self) -> bool {
        self.sparrer.as_ref().is_some_and(|s| s.seat() == self.search.root_state().to_move())
    }

    /// Plays the sparring partner's move, recording a row for each leg it gives a policy.
    fn spar(&mut self, config: &SelfPlayConfig) -> Result<(), SearchError> {
        let sparrer = self.sparrer.as_mut().expect("a sparring game");
        let SparMove { legs, values } = sparrer.choose(self.search.root_state());
        if legs.is_empty() {
            return Err(SearchError::GameOver);
        }
        for (action, policy) in legs {
            if self.over.is_some() {
                break;
            }
            if let Some((policy_actions, policy_target)) = policy {
                let state = self.search.root_state();
                self.log.positions.push(PositionRow {
                    game_id: self.log.game.game_id,
                    ply: self.log.actions,
                    move_number: self.log.game.moves.len() as u32,
                    position: state.to_string(),
                    mover: state.to_move().0,
                    policy_actions,
                    policy_target,
                    root_values: values.clone(),
                    net_values: values.clone(),
                    result: Vec::new(),
                    full_search: true,
                });
            }
            self.play(action, config)?;
        }
        Ok(())
    }

    /// Records the finished search as a decision, then plays the chosen action (or resigns).
    fn decide(&mut self, config: &SelfPlayConfig) -> Result<(), SearchError> {
        let summary = self.search.summary()?;
        let state = self.search.root_state();
        let mover = state.to_move();
        let move_number = self.log.game.moves.len() as u32;
        self.log.positions.push(PositionRow {
            game_id: self.log.game.game_id,
            ply: self.log.actions,
            move_number,
            position: state.to_string(),
            mover: mover.0,
            policy_actions: summary.actions.iter().map(|&a| state.action_index(a) as u16).collect(),
            policy_target: summary.improved_policy.clone(),
            root_values: summary.root_values.0[..G::NUM_PLAYERS].to_vec(),
            net_values: summary.net_values.0[..G::NUM_PLAYERS].to_vec(),
            result: Vec::new(),
            full_search: summary.kind == SearchKind::Full,
        });
        if let Resign::Threshold { value, min_moves, .. } = config.resign
            && move_number >= min_moves
            && summary.root_values.0[mover.index()] < value
        {
            if !self.playthrough {
                self.resign(mover);
                return Ok(());
            }
            self.log.would_have_resigned.get_or_insert((mover, move_number));
        }
        let temperature = self.search.config().temperature.at(move_number);
        let action =
            choose_action(&summary, temperature, &mut self.rng).ok_or(SearchError::GameOver)?;
        self.play(action, config)
    }

    fn play(&mut self, action: G::Action, config: &SelfPlayConfig) -> Result<(), SearchError> {
        self.search.advance(action)?;
        self.log.actions += 1;
        if let Some(m) = self.search.root_state().last_move() {
            self.log.game.moves.push(m);
        }
        self.check_end(config);
        self.set_budget(config);
        Ok(())
    }

    fn check_end(&mut self, config: &SelfPlayConfig) {
        if let Some(ending) = self.log.ending(self.search.root_state(), config) {
            self.over = Some(ending);
        }
    }

    /// Two players only (checked by the config): the opponent wins.
    fn resign(&mut self, mover: Player) {
        let winner = Player(((mover.index() + 1) % G::NUM_PLAYERS) as u8);
        self.over = Some((
            Outcome::Win(winner).values(G::NUM_PLAYERS),
            Termination::Resign,
            Some(Outcome::Win(winner)),
        ));
    }

    /// Playout cap randomization: full or fast search for the next decision.
    fn set_budget(&mut self, config: &SelfPlayConfig) {
        if let PlayoutCap::Randomized { full_fraction, fast_simulations } = config.playout_cap
            && self.rng.random::<f32>() >= full_fraction
        {
            self.search.set_budget(fast_simulations, SearchKind::Fast);
        }
    }
}

impl<G: Game> lockstep::Slot<SelfPlayConfig> for Slot<G> {
    type Game = G;
    type Finished = PlayedGame;

    /// Advances the game until it needs an evaluation or ends: forced actions are played
    /// without search, and every finished search becomes a decision and a move.
    fn step(&mut self, config: &SelfPlayConfig) -> Result<Step<G>, SearchError> {
        loop {
            if self.over.is_some() {
                return Ok(Step::Finished);
            }
            if self.sparrer_to_move() {
                self.spar(config)?;
                continue;
            }
            if let Some(a) = self.search.forced_action() {
                self.play(a, config)?;
                continue;
            }
            if !self.search.is_done() {
                if let Some(leaf) = self.search.gather(&mut self.rng) {
                    return Ok(Step::Evaluate { evaluator: 0, leaf });
                }
                continue;
            }
            self.decide(config)?;
        }
    }

    /// Hands an evaluation back to the search (which filters a root's prior, with
    /// `selfplay.root_filter`).
    fn apply(&mut self, leaf: Leaf<G>, eval: Evaluation) -> Result<(), SearchError> {
        self.search.apply(leaf, eval)
    }

    /// The finished game: its result (per seat) goes into the game and every position row.
    fn finish(mut self) -> PlayedGame {
        let ending = self.over.take().expect("finish() after the game ended");
        self.log.finish(ending, G::NUM_PLAYERS)
    }
}
