//! A fixed set of archive handles shared by the request threads: an
//! `Archive` answers one call at a time (it holds a SQLite connection and
//! per-generation caches), so each request borrows one, on a blocking thread.

use std::path::Path;
use std::sync::{Condvar, Mutex};

use archive::{Archive, Mode};

use crate::ApiError;

/// The handles.
pub struct Pool {
    free: Mutex<Vec<Archive>>,
    returned: Condvar,
}

impl Pool {
    /// Opens `n` read handles on the archive in `dir`.
    pub fn open(dir: &Path, n: usize) -> Result<Pool, archive::Error> {
        let mut archives = (0..n)
            .map(|_| Archive::open(dir, Mode::Read))
            .collect::<Result<Vec<_>, _>>()?;
        // One copy of each segment's facet columns for all the handles.
        if let Some((first, others)) = archives.split_first_mut() {
            for archive in others {
                archive.share_facets(first);
            }
        }
        Ok(Pool {
            free: Mutex::new(archives),
            returned: Condvar::new(),
        })
    }

    /// Runs `f` with a handle that sees the last committed index, waiting
    /// for one to be free.
    pub fn with<T>(&self, f: impl FnOnce(&Archive) -> Result<T, ApiError>) -> Result<T, ApiError> {
        self.borrow(true, f)
    }

    /// Runs `f` with a handle for what it reads from the store alone (a
    /// record page): the index is not reloaded first.
    pub fn with_store<T>(
        &self,
        f: impl FnOnce(&Archive) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        self.borrow(false, f)
    }

    fn borrow<T>(
        &self,
        refresh: bool,
        f: impl FnOnce(&Archive) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let archive = {
            let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(archive) = free.pop() {
                    break archive;
                }
                free = self.returned.wait(free).unwrap_or_else(|e| e.into_inner());
            }
        };
        // Give the handle back even if `f` panics.
        struct Return<'a>(&'a Pool, Option<Archive>);
        impl Drop for Return<'_> {
            fn drop(&mut self) {
                if let Some(archive) = self.1.take() {
                    let mut free = self.0.free.lock().unwrap_or_else(|e| e.into_inner());
                    free.push(archive);
                    self.0.returned.notify_one();
                }
            }
        }
        let guard = Return(self, Some(archive));
        let archive = guard.1.as_ref().ok_or_else(ApiError::internal)?;
        // Another process (an ingest) may have committed since.
        if refresh {
            archive.refresh()?;
        }
        f(archive)
    }
}
