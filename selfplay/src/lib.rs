//! MCTS, evaluators, the lockstep self-play driver and parquet game records (issue 4).
//! Not yet implemented.
