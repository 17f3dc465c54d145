//! Typed, checked access to the columns of a record batch (the reader's half of the
//! conversion). Nothing here indexes without a bounds check: a corrupt file yields an error, not a
//! panic.

use std::path::Path;

use arrow_array::types::ArrowPrimitiveType;
use arrow_array::{Array, BooleanArray, ListArray, PrimitiveArray, RecordBatch, StringArray};

use super::RecordError;
use super::schema::describe_type;

/// The columns of one batch of the file at `path`; `first_row` is the batch's first row in the
/// file, for error messages.
pub(crate) struct Columns<'a> {
    pub path: &'a Path,
    pub batch: &'a RecordBatch,
    pub first_row: usize,
}

/// A list column: row `i` is `values[offsets[i]..offsets[i + 1]]`.
pub(crate) struct ListColumn<'a, V> {
    name: &'a str,
    offsets: &'a [i32],
    values: V,
}

impl<'a> Columns<'a> {
    fn error(&self, row: usize, message: String) -> RecordError {
        RecordError::invalid(self.path, self.first_row + row, message)
    }

    /// The column `name` as an array of type `T`, refusing nulls.
    fn array<T: Array + 'static>(&self, name: &str) -> Result<&'a T, RecordError> {
        let batch: &'a RecordBatch = self.batch;
        let column = batch.column_by_name(name).ok_or_else(|| RecordError::SchemaMismatch {
            path: self.path.to_path_buf(),
            column: name.to_string(),
            expected: "a column".to_string(),
            found: "no such column".to_string(),
        })?;
        let array =
            column.as_any().downcast_ref::<T>().ok_or_else(|| RecordError::SchemaMismatch {
                path: self.path.to_path_buf(),
                column: name.to_string(),
                expected: std::any::type_name::<T>().to_string(),
                found: describe_type(column.data_type()),
            })?;
        match first_null(array) {
            Some(row) => Err(self.error(row, format!("{name} is null"))),
            None => Ok(array),
        }
    }

    pub fn strings(&self, name: &str) -> Result<&'a StringArray, RecordError> {
        self.array(name)
    }

    pub fn bools(&self, name: &str) -> Result<&'a BooleanArray, RecordError> {
        self.array(name)
    }

    pub fn primitives<T: ArrowPrimitiveType>(
        &self,
        name: &str,
    ) -> Result<&'a [T::Native], RecordError> {
        Ok(&self.array::<PrimitiveArray<T>>(name)?.values()[..])
    }

    fn list(&self, name: &'a str) -> Result<(&'a [i32], &'a dyn Array), RecordError> {
        let list: &'a ListArray = self.array(name)?;
        let values: &'a dyn Array = list.values().as_ref();
        let offsets = list.value_offsets();
        if let Some(item) = first_null(values) {
            // Report the row holding the null item.
            let row = offsets.partition_point(|&o| usize::try_from(o).is_ok_and(|o| o <= item));
            return Err(self.error(row.saturating_sub(1), format!("{name} has a null item")));
        }
        Ok((offsets, values))
    }

    pub fn primitive_list<T: ArrowPrimitiveType>(
        &self,
        name: &'a str,
    ) -> Result<ListColumn<'a, &'a [T::Native]>, RecordError> {
        let (offsets, values) = self.list(name)?;
        let values = values.as_any().downcast_ref::<PrimitiveArray<T>>().ok_or_else(|| {
            self.error(0, format!("{name}: unexpected item type {}", values.data_type()))
        })?;
        Ok(ListColumn { name, offsets, values: &values.values()[..] })
    }

    pub fn string_list(
        &self,
        name: &'a str,
    ) -> Result<ListColumn<'a, &'a StringArray>, RecordError> {
        let (offsets, values) = self.list(name)?;
        let values = values.as_any().downcast_ref::<StringArray>().ok_or_else(|| {
            self.error(0, format!("{name}: unexpected item type {}", values.data_type()))
        })?;
        Ok(ListColumn { name, offsets, values })
    }

    /// The item range of row `row` of a list column.
    fn range<V>(
        &self,
        list: &ListColumn<'a, V>,
        row: usize,
    ) -> Result<(usize, usize), RecordError> {
        let bad = || self.error(row, format!("{}: bad list offsets", list.name));
        let start = list.offsets.get(row).copied().ok_or_else(bad)?;
        let end = list.offsets.get(row + 1).copied().ok_or_else(bad)?;
        let start = usize::try_from(start).map_err(|_| bad())?;
        let end = usize::try_from(end).map_err(|_| bad())?;
        if start > end { Err(bad()) } else { Ok((start, end)) }
    }

    /// Row `row` of a primitive list column, copied.
    pub fn list_row<T: Copy>(
        &self,
        list: &ListColumn<'a, &'a [T]>,
        row: usize,
    ) -> Result<Vec<T>, RecordError> {
        let (start, end) = self.range(list, row)?;
        let items = list.values.get(start..end);
        items
            .map(<[T]>::to_vec)
            .ok_or_else(|| self.error(row, format!("{}: bad offsets", list.name)))
    }

    /// Row `row` of a string list column, copied.
    pub fn string_list_row(
        &self,
        list: &ListColumn<'a, &'a StringArray>,
        row: usize,
    ) -> Result<Vec<String>, RecordError> {
        let (start, end) = self.range(list, row)?;
        if end > list.values.len() {
            return Err(self.error(row, format!("{}: bad list offsets", list.name)));
        }
        Ok((start..end).map(|i| list.values.value(i).to_string()).collect())
    }
}

/// The index of the first null of `array`, if any. Every column of both tables is required, so
/// a null (possible in a file from another writer whose schema declares the column nullable) is
/// an invalid value.
fn first_null(array: &dyn Array) -> Option<usize> {
    array.logical_nulls().and_then(|nulls| nulls.iter().position(|valid| !valid))
}
