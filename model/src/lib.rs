//! The camelot-zero network (issue 3): a residual tower with a convolutional policy head and an
//! outcome value head, built on burn. Not yet implemented.
