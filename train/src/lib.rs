//! The replay window, losses and the training/generation loop (issue 5). Not yet implemented.
