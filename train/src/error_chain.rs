//! One line for an error and its causes, each said once.

/// `e` and its sources joined with ": " (how the command line prints an error), each cause said
/// once: a cause whose text is already in the line (an error that prints its source and also
/// returns it) is left out, and a cause that repeats its wrapper's text and adds to it
/// ("loading checkpoint X" then "loading checkpoint X: truncated") replaces the wrapper.
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        let last = parts.last().expect("one part at least");
        if text.contains(last.as_str()) {
            *parts.last_mut().expect("one part") = text;
        } else if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct E(&'static str, Option<Box<E>>);

    impl std::fmt::Display for E {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
    }

    impl std::error::Error for E {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|e| e as _)
        }
    }

    fn chain(texts: &[&'static str]) -> E {
        texts.iter().rev().fold(None, |inner, t| Some(Box::new(E(t, inner)))).map(|b| *b).unwrap()
    }

    #[test]
    fn each_cause_is_said_once() {
        let full = "creating x: No space left on device (os error 28)";
        let disk = "No space left on device (os error 28)";
        assert_eq!(error_chain(&chain(&[full, full, disk])), full);
        assert_eq!(
            error_chain(&chain(&["loading checkpoint X", "loading checkpoint X: truncated"])),
            "loading checkpoint X: truncated"
        );
        assert_eq!(error_chain(&chain(&["run failed", "disk full"])), "run failed: disk full");
    }
}
