//! The store's neutral values on PostgreSQL: bound as the type each parameter has
//! (an integer as `smallint`, `integer` or `bigint`), and read by the type of each
//! column.

use std::error::Error;

use bytes::BytesMut;
use tokio_postgres::types::{IsNull, ToSql, Type, to_sql_checked};

use super::StoreError;
use super::sql::{Row, Value};

type BoxError = Box<dyn Error + Sync + Send>;

impl ToSql for Value {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(n) => match *ty {
                Type::INT2 => i16::try_from(*n)?.to_sql_checked(ty, out),
                Type::INT4 => i32::try_from(*n)?.to_sql_checked(ty, out),
                #[allow(clippy::cast_precision_loss)]
                Type::FLOAT8 => (*n as f64).to_sql_checked(ty, out),
                _ => n.to_sql_checked(ty, out),
            },
            Value::Real(x) => x.to_sql_checked(ty, out),
            Value::Text(s) => s.to_sql_checked(ty, out),
            Value::Bytes(b) => b.to_sql_checked(ty, out),
            Value::Bool(b) => b.to_sql_checked(ty, out),
            Value::Texts(list) => list.to_sql_checked(ty, out),
            Value::Ints(list) => list.to_sql_checked(ty, out),
        }
    }

    /// Any type: [`ToSql::to_sql`] converts to it, or fails with what did not fit.
    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// Row `r` as neutral values, each column read by its type.
pub(super) fn row_of(r: &tokio_postgres::Row) -> Result<Row, StoreError> {
    let values = r
        .columns()
        .iter()
        .enumerate()
        .map(|(i, column)| column_value(r, i, column.type_()))
        .collect::<Result<_, _>>()?;
    Ok(Row(values))
}

fn column_value(r: &tokio_postgres::Row, i: usize, ty: &Type) -> Result<Value, StoreError> {
    fn or_null<T>(v: Option<T>, f: impl FnOnce(T) -> Value) -> Value {
        v.map_or(Value::Null, f)
    }
    Ok(match *ty {
        Type::BOOL => or_null(r.try_get::<_, Option<bool>>(i)?, Value::Bool),
        Type::INT2 => or_null(r.try_get::<_, Option<i16>>(i)?, |n| Value::Int(n.into())),
        Type::INT4 => or_null(r.try_get::<_, Option<i32>>(i)?, |n| Value::Int(n.into())),
        Type::INT8 => or_null(r.try_get::<_, Option<i64>>(i)?, Value::Int),
        Type::FLOAT4 => or_null(r.try_get::<_, Option<f32>>(i)?, |x| Value::Real(x.into())),
        Type::FLOAT8 => or_null(r.try_get::<_, Option<f64>>(i)?, Value::Real),
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => {
            or_null(r.try_get::<_, Option<String>>(i)?, Value::Text)
        }
        Type::BYTEA => or_null(r.try_get::<_, Option<Vec<u8>>>(i)?, Value::Bytes),
        Type::INT2_ARRAY => or_null(r.try_get::<_, Option<Vec<i16>>>(i)?, |list| {
            Value::Ints(list.into_iter().map(i64::from).collect())
        }),
        Type::TEXT_ARRAY => or_null(r.try_get::<_, Option<Vec<String>>>(i)?, Value::Texts),
        ref other => {
            return Err(StoreError::Corrupt(format!(
                "column {i} of a type the store does not read: {other}"
            )));
        }
    })
}
