//! Where a run lives: a folder, or a bucket and a prefix.

use std::fmt;
use std::path::PathBuf;

/// A run's location, as written on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A folder on a local or shared filesystem.
    Local(PathBuf),
    /// `s3://bucket/prefix` (the prefix may be empty).
    S3 { bucket: String, prefix: String },
}

impl Location {
    /// Parses `s3://bucket[/prefix]` or a folder path.
    pub fn parse(text: &str) -> Result<Location, String> {
        match text.strip_prefix("s3://") {
            Some(rest) => {
                let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
                if bucket.is_empty() {
                    return Err(format!("{text}: no bucket (expected s3://bucket/prefix)"));
                }
                let prefix = prefix.trim_matches('/').to_string();
                Ok(Location::S3 { bucket: bucket.to_string(), prefix })
            }
            None if text.contains("://") => {
                Err(format!("{text}: only folders and s3://bucket/prefix locations are supported"))
            }
            None if text.is_empty() => Err("an empty location".into()),
            None => Ok(Location::Local(PathBuf::from(text))),
        }
    }

    /// How often a process waiting for another one's files looks again: often on a folder
    /// (a listing costs a directory read), every second on S3 (a listing is a billed request).
    pub fn poll_interval(&self) -> std::time::Duration {
        match self {
            Location::Local(_) => std::time::Duration::from_millis(100),
            Location::S3 { .. } => std::time::Duration::from_secs(1),
        }
    }

    /// The local folder, for a local location.
    pub fn local(&self) -> Option<&PathBuf> {
        match self {
            Location::Local(p) => Some(p),
            Location::S3 { .. } => None,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Local(p) => write!(f, "{}", p.display()),
            Location::S3 { bucket, prefix } if prefix.is_empty() => write!(f, "s3://{bucket}"),
            Location::S3 { bucket, prefix } => write!(f, "s3://{bucket}/{prefix}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_parse_and_print() {
        assert_eq!(Location::parse("data/run").unwrap(), Location::Local("data/run".into()));
        let s3 = Location::parse("s3://bucket/runs/a/").unwrap();
        assert_eq!(s3, Location::S3 { bucket: "bucket".into(), prefix: "runs/a".into() });
        assert_eq!(s3.to_string(), "s3://bucket/runs/a");
        assert_eq!(Location::parse("s3://b").unwrap().to_string(), "s3://b");
        for bad in ["s3://", "s3:///x", "gs://b/x", ""] {
            assert!(Location::parse(bad).is_err(), "{bad}");
        }
    }
}
