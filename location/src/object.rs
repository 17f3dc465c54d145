//! [`Store`]: put, get, list and delete objects of a [`Location`].

use std::path::{Path, PathBuf};

use futures::TryStreamExt;
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path as ObjectPath;
use object_store::{BackoffConfig, ObjectStore, PutMode, PutOptions, PutPayload, RetryConfig};

/// How a failed S3 request is retried: with growing pauses (1 s up to 30 s) for up to 4
/// minutes (object_store's default gives up after about 2 s when the server does not answer),
/// so a storage outage of a few minutes costs a worker or the learner a pause, not its life.
/// Kept under 5 minutes: a request is retried with the credentials it was signed with.
const RETRY: RetryConfig = RetryConfig {
    backoff: BackoffConfig {
        init_backoff: std::time::Duration::from_secs(1),
        max_backoff: std::time::Duration::from_secs(30),
        base: 2.0,
    },
    max_retries: 20,
    retry_timeout: std::time::Duration::from_secs(240),
};

use crate::location::Location;

/// An operation on a location that failed, naming the location and the key.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{location}: {message}")]
    Open { location: String, message: String },
    #[error("{what} {location}/{key}: {message}")]
    Object { what: &'static str, location: String, key: String, message: String },
}

/// Objects under a [`Location`].
pub struct Store {
    location: Location,
    backend: Backend,
}

enum Backend {
    Local(PathBuf),
    S3 { store: AmazonS3, prefix: String, runtime: tokio::runtime::Runtime },
}

impl Store {
    /// Opens a location (an S3 location reads its endpoint and credentials from the
    /// environment; nothing is contacted until the first operation).
    pub fn open(location: &Location) -> Result<Store, StoreError> {
        let open_error =
            |message: String| StoreError::Open { location: location.to_string(), message };
        let backend = match location {
            Location::Local(dir) => Backend::Local(dir.clone()),
            Location::S3 { bucket, prefix } => {
                let mut builder = AmazonS3Builder::from_env().with_bucket_name(bucket);
                // AWS_ENDPOINT_URL is the variable the AWS tools read today; object_store
                // reads AWS_ENDPOINT.
                if let Ok(endpoint) = std::env::var("AWS_ENDPOINT_URL") {
                    builder = builder.with_endpoint(endpoint);
                }
                let store =
                    builder.with_retry(RETRY).build().map_err(|e| open_error(e.to_string()))?;
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| open_error(e.to_string()))?;
                Backend::S3 { store, prefix: prefix.clone(), runtime }
            }
        };
        Ok(Store { location: location.clone(), backend })
    }

    /// The location.
    pub fn location(&self) -> &Location {
        &self.location
    }

    fn error(&self, what: &'static str, key: &str, message: impl ToString) -> StoreError {
        StoreError::Object {
            what,
            location: self.location.to_string(),
            key: key.to_string(),
            message: message.to_string(),
        }
    }

    fn object_path(prefix: &str, key: &str) -> ObjectPath {
        if prefix.is_empty() {
            ObjectPath::from(key)
        } else {
            ObjectPath::from(format!("{prefix}/{key}"))
        }
    }

    /// Writes `bytes` as `key`, replacing what was there, atomically.
    pub fn put(&self, key: &str, bytes: Vec<u8>) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Local(dir) => {
                let path = dir.join(key);
                ensure_parent(&path).map_err(|e| self.error("writing", key, e))?;
                storage::write_atomic(&path, &bytes).map_err(|e| self.error("writing", key, e))
            }
            Backend::S3 { store, prefix, runtime } => runtime
                .block_on(store.put(&Self::object_path(prefix, key), PutPayload::from(bytes)))
                .map(|_| ())
                .map_err(|e| self.error("writing", key, e)),
        }
    }

    /// Writes `bytes` as `key` only if there is no such object: `Ok(false)` when there was one
    /// (nothing is written). On S3 this is a conditional PUT (`If-None-Match: *`); a store that
    /// does not support it is an error rather than a silent overwrite.
    pub fn put_new(&self, key: &str, bytes: Vec<u8>) -> Result<bool, StoreError> {
        match &self.backend {
            Backend::Local(dir) => {
                let path = dir.join(key);
                ensure_parent(&path).map_err(|e| self.error("writing", key, e))?;
                let tmp = storage::temp_path(&path);
                storage::write_atomic(&tmp, &bytes).map_err(|e| self.error("writing", key, e))?;
                // A hard link is created only where no file is: the exclusive publish.
                let linked = std::fs::hard_link(&tmp, &path);
                let _ = std::fs::remove_file(&tmp);
                match linked {
                    Ok(()) => {
                        if let Some(parent) = path.parent() {
                            storage::sync_dir(parent).map_err(|e| self.error("writing", key, e))?;
                        }
                        Ok(true)
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
                    Err(e) => Err(self.error("writing", key, e)),
                }
            }
            Backend::S3 { store, prefix, runtime } => {
                let options = PutOptions { mode: PutMode::Create, ..PutOptions::default() };
                let path = Self::object_path(prefix, key);
                match runtime.block_on(store.put_opts(&path, PutPayload::from(bytes), options)) {
                    Ok(_) => Ok(true),
                    Err(object_store::Error::AlreadyExists { .. })
                    | Err(object_store::Error::Precondition { .. }) => Ok(false),
                    Err(e) => Err(self.error("writing", key, e)),
                }
            }
        }
    }

    /// The object `key`, or `None` when there is none.
    pub fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        match &self.backend {
            Backend::Local(dir) => match std::fs::read(dir.join(key)) {
                Ok(bytes) => Ok(Some(bytes)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(self.error("reading", key, e)),
            },
            Backend::S3 { store, prefix, runtime } => {
                let path = Self::object_path(prefix, key);
                let got = runtime.block_on(async {
                    match store.get(&path).await {
                        Ok(result) => result.bytes().await.map(|b| Some(b.to_vec())),
                        Err(object_store::Error::NotFound { .. }) => Ok(None),
                        Err(e) => Err(e),
                    }
                });
                got.map_err(|e| self.error("reading", key, e))
            }
        }
    }

    /// The keys under `prefix` (a folder-like key such as `games/gen-0003`; `""` for all),
    /// sorted. Temporaries of writes in progress (hidden names, `*.tmp`) are not listed.
    pub fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        let mut keys = match &self.backend {
            Backend::Local(dir) => {
                let mut keys = Vec::new();
                walk(dir, &dir.join(prefix), &mut keys)
                    .map_err(|e| self.error("listing", prefix, e))?;
                keys
            }
            Backend::S3 { store, prefix: root, runtime } => {
                let path = Self::object_path(root, prefix.trim_end_matches('/'));
                let listed: Vec<object_store::ObjectMeta> = runtime
                    .block_on(store.list(Some(&path)).try_collect())
                    .map_err(|e| self.error("listing", prefix, e))?;
                let skip = if root.is_empty() { 0 } else { root.len() + 1 };
                listed.into_iter().map(|m| m.location.to_string()[skip..].to_string()).collect()
            }
        };
        keys.retain(|k| {
            let name = k.rsplit('/').next().unwrap_or(k);
            !name.starts_with('.') && !name.ends_with(".tmp")
        });
        keys.sort();
        Ok(keys)
    }

    /// Deletes `key` (nothing when there is none).
    pub fn delete(&self, key: &str) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Local(dir) => match std::fs::remove_file(dir.join(key)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    Err(self.error("deleting", key, e))
                }
                _ => Ok(()),
            },
            Backend::S3 { store, prefix, runtime } => {
                match runtime.block_on(store.delete(&Self::object_path(prefix, key))) {
                    Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
                    Err(e) => Err(self.error("deleting", key, e)),
                }
            }
        }
    }
}

fn ensure_parent(path: &Path) -> std::io::Result<()> {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => std::fs::create_dir_all(parent),
        _ => Ok(()),
    }
}

/// The files under `from`, as keys relative to `root`.
fn walk(root: &Path, from: &Path, keys: &mut Vec<String>) -> std::io::Result<()> {
    let entries = match std::fs::read_dir(from) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => {
            // The prefix names a file.
            if let Ok(rel) = from.strip_prefix(root) {
                keys.push(rel.to_string_lossy().replace('\\', "/"));
            }
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            walk(root, &path, keys)?;
        } else if let Ok(rel) = path.strip_prefix(root) {
            keys.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(name: &str) -> (PathBuf, Store) {
        let dir = std::env::temp_dir().join(format!("store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&Location::Local(dir.clone())).unwrap();
        (dir, store)
    }

    #[test]
    fn objects_are_put_got_listed_and_deleted() {
        let (dir, store) = local("basic");
        assert_eq!(store.get("models/latest.toml").unwrap(), None);
        store.put("models/latest.toml", b"generation = 1".to_vec()).unwrap();
        store.put("games/gen-0001/w-a/games-000000.parquet", b"x".to_vec()).unwrap();
        store.put("games/gen-0001/w-b/games-000000.parquet", b"y".to_vec()).unwrap();
        std::fs::write(dir.join("games/gen-0001/w-a/.games-000001.parquet.tmp"), b"half").unwrap();
        assert_eq!(store.get("models/latest.toml").unwrap().unwrap(), b"generation = 1");
        assert_eq!(
            store.list("games").unwrap(),
            ["games/gen-0001/w-a/games-000000.parquet", "games/gen-0001/w-b/games-000000.parquet"]
        );
        assert_eq!(store.list("nothing").unwrap(), Vec::<String>::new());
        store.delete("games/gen-0001/w-b/games-000000.parquet").unwrap();
        store.delete("games/gen-0001/w-b/games-000000.parquet").unwrap();
        assert_eq!(store.list("games/gen-0001/w-b").unwrap(), Vec::<String>::new());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn put_new_takes_a_name_once() {
        let (dir, store) = local("new");
        assert!(store.put_new("a/b.bin", b"first".to_vec()).unwrap());
        assert!(!store.put_new("a/b.bin", b"second".to_vec()).unwrap());
        assert_eq!(store.get("a/b.bin").unwrap().unwrap(), b"first");
        assert_eq!(store.list("a").unwrap(), ["a/b.bin"], "no temporary is left");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Not a test of its own: the writer process of the next test (it runs only with
    /// `STORE_WRITER_DIR` set), writing one large object over and over.
    #[test]
    fn writer_child() {
        let Ok(dir) = std::env::var("STORE_WRITER_DIR") else { return };
        let store = Store::open(&Location::Local(PathBuf::from(dir))).unwrap();
        loop {
            store.put("runs/big.bin", vec![7u8; 32 << 20]).unwrap();
        }
    }

    #[test]
    fn a_writer_killed_in_the_middle_of_a_write_leaves_nothing_visible() {
        let (dir, store) = local("killed");
        std::fs::create_dir_all(&dir).unwrap();
        for wait_ms in [5u64, 40, 120] {
            let mut child = std::process::Command::new(std::env::current_exe().unwrap())
                .args(["object::tests::writer_child", "--exact", "--test-threads=1"])
                .env("STORE_WRITER_DIR", &dir)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(std::time::Duration::from_millis(wait_ms));
            child.kill().unwrap(); // SIGKILL, wherever the write stands
            child.wait().unwrap();
            for key in store.list("").unwrap() {
                let bytes = store.get(&key).unwrap().unwrap();
                assert_eq!(
                    (key.as_str(), bytes.len()),
                    ("runs/big.bin", 32 << 20),
                    "whole or absent"
                );
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
