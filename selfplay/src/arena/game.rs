//! [`ArenaGame`]: one finished arena game, and its parquet `games` record.

use std::path::Path;

use games::Termination;

use records::{
    GameRecord, RecordError, Shard, ShardPaths, list_shards, seated_players, write_shard,
};

/// The `run` name of arena records.
pub const ARENA_RUN: &str = "arena";

/// A finished arena game.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaGame {
    /// `0..N` within the match; decides the seating and the opening.
    pub game_id: u64,
    /// Seed of the game's own random choices (search, rollouts, random and greedy players).
    pub seed: u64,
    /// `seating[seat]` = index of the player in that seat.
    pub seating: Vec<usize>,
    /// The position string the game started from (before the random opening moves).
    pub start_position: String,
    /// Every complete move in official notation, the opening moves first.
    pub moves: Vec<String>,
    /// Score share per seat (1 win, 0 loss, `1 / players` each for a draw or the move cap).
    pub result: Vec<f32>,
    pub termination: Termination,
}

impl ArenaGame {
    /// The score share of player `player` in this game.
    pub fn score_of(&self, player: usize) -> f32 {
        self.seat_of(player).map_or(0.0, |s| self.result[s])
    }

    /// The seat player `player` sat in.
    pub fn seat_of(&self, player: usize) -> Option<usize> {
        self.seating.iter().position(|&p| p == player)
    }

    /// The player names in seat order joined by ` vs `, e.g. `gen-0007:sims=64 vs random`
    /// (`names` by player index).
    pub fn model_name(&self, names: &[String]) -> String {
        let seated: Vec<&str> =
            self.seating.iter().map(|&p| names.get(p).map_or("?", String::as_str)).collect();
        seated_players(&seated)
    }

    /// The `games` row of this game (`run` = [`ARENA_RUN`], generation 0).
    pub fn to_record(&self, variant: &str, names: &[String]) -> GameRecord {
        GameRecord {
            run: ARENA_RUN.to_string(),
            generation: 0,
            game_id: self.game_id,
            variant: variant.to_string(),
            seed: self.seed,
            start_position: self.start_position.clone(),
            moves: self.moves.clone(),
            result: self.result.clone(),
            termination: self.termination,
            plies: self.moves.len() as u32,
            model: self.model_name(names),
        }
    }
}

/// Writes `games` as one shard (no positions) into `dir`, numbered after the shards already
/// there, and returns its paths.
pub fn write_games(
    dir: &Path,
    variant: &str,
    names: &[String],
    games: &[ArenaGame],
) -> Result<ShardPaths, RecordError> {
    let index = if dir.exists() { list_shards(dir)?.last().map_or(0, |s| s.index + 1) } else { 0 };
    let shard = Shard {
        games: games.iter().map(|g| g.to_record(variant, names)).collect(),
        positions: Vec::new(),
    };
    write_shard(dir, index, ARENA_RUN, 0, &shard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use records::read_games;

    #[test]
    fn records_name_the_players_in_seat_order_and_round_trip() {
        let game = ArenaGame {
            game_id: 3,
            seed: 11,
            seating: vec![1, 0],
            start_position: "camelot W W:KA2 B:KL15 cm=0,0".into(),
            moves: vec!["A2-A3".into()],
            result: vec![0.0, 1.0],
            termination: Termination::Castle,
        };
        let names = vec!["gen-0007:sims=64".to_string(), "random".to_string()];
        assert_eq!(game.model_name(&names), "random vs gen-0007:sims=64");
        assert_eq!(game.score_of(0), 1.0);
        assert_eq!(game.seat_of(1), Some(0));
        let dir = std::env::temp_dir().join(format!("cz-arena-records-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let first = write_games(&dir, "camelot", &names, std::slice::from_ref(&game)).unwrap();
        let second = write_games(&dir, "camelot", &names, std::slice::from_ref(&game)).unwrap();
        assert_eq!((first.index, second.index), (0, 1));
        let back = read_games(&first.games).unwrap();
        assert_eq!(back, vec![game.to_record("camelot", &names)]);
        assert_eq!(back[0].model, "random vs gen-0007:sims=64");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
