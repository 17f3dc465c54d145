//! The Thrift structures of a parquet file, its footer and the header of every page, walked before
//! the parquet crate parses them.
//!
//! Why: parquet 60 skips a field it does not know element by element, and takes an element of a
//! list of booleans for no bytes at all (the compact protocol spends one byte on each). A damaged
//! header announcing a list of two billion booleans therefore spins through two billion empty
//! skips with no read to fail, tens of seconds of CPU for one list (found by
//! `tests/fuzz_records.rs`: a list of 2^28 took 2.5 s). This walk reads the compact protocol as its
//! specification has it: every element of a list, a set or a map takes at least one byte, so one
//! that announces more elements than bytes are left is refused at once, structures nest at most
//! [`MAX_DEPTH`] deep (parquet's own limit), and each byte is read once. A file that passes may
//! still be refused by parquet for anything the walk does not look at.

use parquet::file::metadata::{ColumnChunkMetaData, ParquetMetaData};
use parquet::file::reader::ChunkReader;

/// The deepest nesting of structures and collections the walk follows.
const MAX_DEPTH: usize = 64;

/// Walks the footer of `file` (its `FileMetaData` structure). A file too short for a footer, or
/// whose footer length or magic is wrong, is left for parquet to refuse.
pub(super) fn check_footer<R: ChunkReader>(file: &R) -> Result<(), String> {
    let len = file.len();
    if len < 12 {
        return Ok(());
    }
    let tail = file.get_bytes(len - 8, 8).map_err(|e| e.to_string())?;
    let footer_len = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
    if &tail[4..] != b"PAR1" || footer_len > len - 8 {
        return Ok(());
    }
    let footer =
        file.get_bytes(len - 8 - footer_len, footer_len as usize).map_err(|e| e.to_string())?;
    Walk::new(&footer).structure(0).map_err(|e| format!("footer: {e}"))
}

/// Walks the header of every page of every column chunk in `metadata`, following the pages as
/// parquet's page reader does: from the chunk's first byte, each header followed by its
/// `compressed_page_size` bytes of data, to the chunk's last byte.
pub(super) fn check_pages<R: ChunkReader>(
    file: &R,
    metadata: &ParquetMetaData,
) -> Result<(), String> {
    for (g, group) in metadata.row_groups().iter().enumerate() {
        for (c, column) in group.columns().iter().enumerate() {
            let place = || format!("row group {g}, column chunk {c}");
            let (start, len) = chunk_range(column).map_err(|e| format!("{}: {e}", place()))?;
            if start.checked_add(len).is_none_or(|end| end > file.len()) {
                return Err(format!(
                    "{}: bytes {start}..{start}+{len} past the end of a {}-byte file",
                    place(),
                    file.len()
                ));
            }
            let chunk = file.get_bytes(start, len as usize).map_err(|e| e.to_string())?;
            let mut at = 0;
            while at < chunk.len() {
                let mut walk = Walk::new(&chunk[at..]);
                let data =
                    walk.page_header().map_err(|e| format!("{}: page at {at}: {e}", place()))?;
                at += walk.at + data;
            }
        }
    }
    Ok(())
}

/// The bytes of a column chunk, `(start, length)`, as parquet's `byte_range` gives them (from the
/// dictionary page if there is one, else the first data page), but refused when the footer makes
/// either negative: `byte_range` panics then (found by `tests/fuzz_records.rs`: one flipped
/// byte of a games file's footer).
fn chunk_range(column: &ColumnChunkMetaData) -> Result<(u64, u64), String> {
    let start = column.dictionary_page_offset().unwrap_or(column.data_page_offset());
    let len = column.compressed_size();
    match (u64::try_from(start), u64::try_from(len)) {
        (Ok(start), Ok(len)) => Ok((start, len)),
        _ => Err(format!("a negative start or length of the chunk's bytes ({start}, {len})")),
    }
}

/// A reading position in compact-protocol bytes.
struct Walk<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Walk<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Walk { bytes, at: 0 }
    }

    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn skip(&mut self, n: usize) -> Result<(), String> {
        if n > self.left() {
            return Err(format!(
                "{n} bytes announced at byte {} with {} left",
                self.at,
                self.left()
            ));
        }
        self.at += n;
        Ok(())
    }

    fn byte(&mut self) -> Result<u8, String> {
        let b = *self.bytes.get(self.at).ok_or("ends inside a structure")?;
        self.at += 1;
        Ok(b)
    }

    /// An unsigned varint of at most 64 bits.
    fn varint(&mut self) -> Result<u64, String> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(format!("a varint longer than 10 bytes before byte {}", self.at))
    }

    /// A zigzag-encoded signed varint.
    fn signed(&mut self) -> Result<i64, String> {
        let n = self.varint()?;
        Ok((n >> 1) as i64 ^ -((n & 1) as i64))
    }

    /// A count of elements that must each take at least one of the bytes left.
    fn count(&mut self, n: u64) -> Result<usize, String> {
        match usize::try_from(n) {
            Ok(n) if n <= self.left() => Ok(n),
            _ => Err(format!(
                "{n} elements announced at byte {} with {} bytes left",
                self.at,
                self.left()
            )),
        }
    }

    /// The fields of one structure up to its stop byte, each handed as (field id, type) to
    /// `field`, which must read its value.
    fn fields(
        &mut self,
        depth: usize,
        mut field: impl FnMut(&mut Self, i64, u8) -> Result<(), String>,
    ) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(format!("nested deeper than {MAX_DEPTH}"));
        }
        let mut id = 0i64;
        loop {
            let header = self.byte()?;
            if header == 0 {
                return Ok(());
            }
            let delta = header >> 4;
            id = if delta == 0 { self.signed()? } else { id + i64::from(delta) };
            field(self, id, header & 0x0f)?;
        }
    }

    /// A structure whose fields are all walked and none kept.
    fn structure(&mut self, depth: usize) -> Result<(), String> {
        self.fields(depth, |walk, _, kind| walk.value(kind, depth + 1, false))
    }

    /// One value of compact type `kind`; a boolean takes a byte in a collection and none as a
    /// field (its value is the type).
    fn value(&mut self, kind: u8, depth: usize, in_collection: bool) -> Result<(), String> {
        match kind {
            1 | 2 => self.skip(usize::from(in_collection)),
            3 => self.skip(1),
            4..=6 => self.varint().map(|_| ()),
            7 => self.skip(8),
            8 => {
                let len = self.varint()?;
                self.skip(usize::try_from(len).unwrap_or(usize::MAX))
            }
            9 | 10 => self.list(depth),
            11 => self.map(depth),
            12 => self.structure(depth),
            13 => self.skip(16),
            _ => Err(format!("unknown type {kind} before byte {}", self.at)),
        }
    }

    fn list(&mut self, depth: usize) -> Result<(), String> {
        let header = self.byte()?;
        // Some writers give an empty list element type 0 (parquet accepts it).
        if header == 0 {
            return Ok(());
        }
        let short = header >> 4;
        let n = if short == 15 { self.varint()? } else { u64::from(short) };
        let n = self.count(n)?;
        for _ in 0..n {
            self.value(header & 0x0f, depth + 1, true)?;
        }
        Ok(())
    }

    fn map(&mut self, depth: usize) -> Result<(), String> {
        let n = self.varint()?;
        let n = self.count(n)?;
        if n > 0 {
            let types = self.byte()?;
            for _ in 0..n {
                self.value(types >> 4, depth + 1, true)?;
                self.value(types & 0x0f, depth + 1, true)?;
            }
        }
        Ok(())
    }

    /// A `PageHeader` structure; returns its `compressed_page_size` (field 3), the bytes of data
    /// that follow it.
    fn page_header(&mut self) -> Result<usize, String> {
        let mut data = None;
        self.fields(0, |walk, id, kind| {
            if id == 3 && kind == 5 {
                let size = walk.signed()?;
                data = Some(usize::try_from(size).map_err(|_| format!("page size {size}"))?);
                Ok(())
            } else {
                walk.value(kind, 1, false)
            }
        })?;
        let data = data.ok_or("a page header without its compressed size")?;
        if data > self.left() {
            return Err(format!(
                "{data} bytes of page data with {} left in the chunk",
                self.left()
            ));
        }
        Ok(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(bytes: &[u8]) -> Result<(), String> {
        Walk::new(bytes).structure(0)
    }

    #[test]
    fn compact_structures_are_walked_to_their_stop_byte() {
        // i32 field 1 = -3; bool field 2 true; binary field 3 "ab"; list<bool> of 2; map
        // <i32,double> of 1; nested struct with a field id given as a varint (field 300, byte 7).
        let bytes = [
            0x15, 0x05, 0x11, 0x18, 0x02, b'a', b'b', 0x19, 0x21, 1, 0, 0x1B, 0x01, 0x57, 0x04, 0,
            0, 0, 0, 0, 0, 0, 0, 0x1C, 0x03, 0xD8, 0x04, 0x07, 0x00, 0x00, 0x00,
        ];
        let mut w = Walk::new(&bytes);
        w.structure(0).unwrap();
        assert_eq!(w.at, bytes.len() - 1, "the walk stops at the outer stop byte");
    }

    #[test]
    fn collections_longer_than_the_bytes_left_are_refused() {
        // Field 15 a list of 2^28 booleans, then a stop: parquet spins through it.
        let huge_bools = [0xF9, 0xF1, 0x80, 0x80, 0x80, 0x80, 0x01, 0x00];
        assert!(walk(&huge_bools).unwrap_err().contains("268435456 elements"));
        let bools = [0xF9, 0x31, 1, 0, 1, 0x00];
        assert_eq!(walk(&bools), Ok(()));
        let short_bools = [0xF9, 0x31, 1, 0x00];
        assert!(walk(&short_bools).is_err());
        let huge_map = [0xFB, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x11, 0x00];
        assert!(walk(&huge_map).unwrap_err().contains("elements"));
        let long_binary = [0x18, 0x7F, b'x', 0x00];
        assert!(walk(&long_binary).unwrap_err().contains("127 bytes"));
    }

    #[test]
    fn unknown_types_endless_varints_deep_nesting_and_cut_bytes_are_refused() {
        assert!(walk(&[0x1E, 0x00]).unwrap_err().contains("unknown type 14"));
        assert!(
            walk(&[0x15, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
                .is_err()
        );
        let deep = vec![0x1C; 100];
        assert!(walk(&deep).unwrap_err().contains("deeper"));
        assert!(walk(&[0x15, 0x05]).unwrap_err().contains("ends"));
        assert_eq!(walk(&[0x19, 0x00, 0x00]), Ok(()), "an empty list of element type 0");
    }

    /// A one-column parquet file's bytes and its metadata with the column chunk's dictionary
    /// offset, first data page and compressed size replaced.
    fn with_chunk(
        dictionary: Option<i64>,
        data: i64,
        size: i64,
    ) -> (bytes::Bytes, ParquetMetaData) {
        use arrow_array::{Int32Array, RecordBatch};
        use parquet::arrow::ArrowWriter;
        use parquet::file::metadata::ParquetMetaDataReader;
        use std::sync::Arc;
        let batch = RecordBatch::try_from_iter([(
            "x",
            Arc::new(Int32Array::from(vec![1, 2, 3])) as arrow_array::ArrayRef,
        )])
        .unwrap();
        let mut out = Vec::new();
        let mut writer = ArrowWriter::try_new(&mut out, batch.schema(), None).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
        let file = bytes::Bytes::from(out);
        let metadata = ParquetMetaDataReader::new().parse_and_finish(&file).unwrap();
        let mut builder = metadata.into_builder();
        let groups = builder
            .take_row_groups()
            .into_iter()
            .map(|group| {
                let columns = group
                    .columns()
                    .iter()
                    .map(|c| {
                        c.clone()
                            .into_builder()
                            .set_dictionary_page_offset(dictionary)
                            .set_data_page_offset(data)
                            .set_total_compressed_size(size)
                            .build()
                            .unwrap()
                    })
                    .collect();
                group.into_builder().set_column_metadata(columns).build().unwrap()
            })
            .collect();
        (file, builder.set_row_groups(groups).build())
    }

    #[test]
    fn a_column_chunk_at_a_negative_place_is_refused_not_a_panic() {
        let (file, metadata) = with_chunk(None, -1, 10);
        let e = check_pages(&file, &metadata).unwrap_err();
        assert!(e.contains("row group 0, column chunk 0: a negative start"), "{e}");
        let (file, metadata) = with_chunk(Some(-8), 4, 10);
        assert!(check_pages(&file, &metadata).unwrap_err().contains("(-8, 10)"));
        let (file, metadata) = with_chunk(None, 4, -3);
        assert!(check_pages(&file, &metadata).unwrap_err().contains("(4, -3)"));
        // Past the end is refused as before.
        let (file, metadata) = with_chunk(None, 4, 1 << 40);
        assert!(check_pages(&file, &metadata).unwrap_err().contains("past the end"));
    }

    #[test]
    fn a_page_header_gives_its_data_size() {
        // type (1) i32 0, uncompressed (2) i32 6, compressed (3) i32 4, then 4 bytes of data.
        let bytes = [0x15, 0x00, 0x15, 0x0C, 0x15, 0x08, 0x00, 9, 9, 9, 9];
        let mut w = Walk::new(&bytes);
        assert_eq!(w.page_header(), Ok(4));
        assert_eq!(w.at, 7);
        assert!(Walk::new(&bytes[..9]).page_header().unwrap_err().contains("4 bytes of page data"));
        assert!(Walk::new(&[0x15, 0x00, 0x00]).page_header().unwrap_err().contains("without"));
        let negative = [0x35, 0x01, 0x00];
        assert!(Walk::new(&negative).page_header().unwrap_err().contains("page size -1"));
    }
}
