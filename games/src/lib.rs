//! Rules of Camelot and Tri-Camelot.
