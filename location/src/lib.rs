//! A run's location — a local (or shared: NFS, Lustre) folder, or `s3://bucket/prefix` in any
//! S3-compatible object store — behind one interface ([`Store`]), for the processes that share a
//! run across machines (the learner and its self-play workers).
//!
//! Keys are `/`-separated paths relative to the location (`models/latest.toml`,
//! `games/gen-0003/w-node7/games-000012.parquet`). Every write is atomic: a reader sees the old
//! object or the whole new one, never part of one — on a filesystem through a temporary and a
//! rename, on S3 because a single PUT is atomic. [`Store::put_new`] creates an object only if
//! there is none (an exclusive link on a filesystem, a conditional PUT on S3 where the store
//! supports it), so two writers can never both take one name.
//!
//! An S3 location takes its endpoint, region and credentials from the usual AWS environment
//! variables (`AWS_ENDPOINT_URL` or `AWS_ENDPOINT`, `AWS_DEFAULT_REGION`, `AWS_ACCESS_KEY_ID`,
//! `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`; `AWS_ALLOW_HTTP=true` for a plain-HTTP server
//! such as a local MinIO), so AWS, MinIO, Ceph and R2 all work.

mod location;
mod object;

pub use location::Location;
pub use object::{Store, StoreError};
