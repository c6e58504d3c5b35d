//! The date-taken histogram of a search: matching records counted per day,
//! month or year, split by the precision their date is known to.

use std::collections::BTreeMap;

use gazetteer::Gazetteer;
use serde::Serialize;

use crate::{Archive, Error, SearchQuery};

/// The width of a histogram bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Bucket {
    /// One bar per day.
    Day,
    /// One bar per month.
    Month,
    /// One bar per year.
    Year,
}

impl Bucket {
    /// Parses `day`, `month` or `year`.
    pub fn parse(s: &str) -> Option<Bucket> {
        match s {
            "day" => Some(Bucket::Day),
            "month" => Some(Bucket::Month),
            "year" => Some(Bucket::Year),
            _ => None,
        }
    }
}

/// How much of a date taken is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    /// `YYYY-MM-DD`.
    Day,
    /// `YYYY-MM`.
    Month,
    /// `YYYY`.
    Year,
}

/// One bar: a period (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`) and its records by
/// the precision of their date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HistogramBar {
    /// The period, as wide as its precision (`2016`, `2016-10`, `2016-10-07`).
    pub period: String,
    /// How precisely the period is known: a bar as wide as the bucket, or
    /// wider for dates known less precisely than the bucket (a record dated
    /// `2016` in a month histogram).
    pub precision: Precision,
    /// Records dated to the day.
    pub day: u64,
    /// Records dated to the month.
    pub month: u64,
    /// Records dated to the year.
    pub year: u64,
}

/// What [`Archive::date_histogram`] counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DateHistogram {
    /// The bar width asked for.
    pub bucket: Bucket,
    /// Bars in date order; periods with no record are absent.
    pub bars: Vec<HistogramBar>,
    /// Matching records without a date taken.
    pub undated: u64,
    /// Matching records.
    pub total: u64,
}

impl Archive {
    /// Counts the records a search matches by their date taken.
    pub fn date_histogram(
        &self,
        query: &SearchQuery,
        bucket: Bucket,
        gazetteer: Option<&Gazetteer>,
    ) -> Result<DateHistogram, Error> {
        // Keyed by the record's first possible day and last possible day:
        // few distinct pairs (a few per day of the archive's span).
        let mut spans: BTreeMap<(i64, i64), u64> = BTreeMap::new();
        let mut undated = 0;
        let total = self.each_match(
            query,
            gazetteer,
            |segment| {
                let fast = segment.fast_fields();
                Ok((
                    fast.i64("date_from")?.first_or_default_col(0),
                    fast.i64("date_to")?.first_or_default_col(0),
                ))
            },
            |(from, to), doc| {
                let (from, to) = (from.get_val(doc), to.get_val(doc));
                if from == 0 {
                    undated += 1;
                } else {
                    *spans.entry((from, to)).or_default() += 1;
                }
            },
        )?;
        let mut bars: BTreeMap<(i64, Precision), [u64; 3]> = BTreeMap::new();
        for ((from, to), n) in spans {
            let precision = precision_of(from, to);
            let shown = precision.max(match bucket {
                Bucket::Day => Precision::Day,
                Bucket::Month => Precision::Month,
                Bucket::Year => Precision::Year,
            });
            let period = match shown {
                Precision::Day => from,
                Precision::Month => from / 100 * 100,
                Precision::Year => from / 10000 * 10000,
            };
            bars.entry((period, shown)).or_default()[precision as usize] += n;
        }
        let mut bars: Vec<HistogramBar> = bars
            .into_iter()
            .map(|((period, precision), [day, month, year])| HistogramBar {
                period: period_text(period, precision),
                precision,
                day,
                month,
                year,
            })
            .collect();
        bars.sort_by(|a, b| a.period.cmp(&b.period));
        Ok(DateHistogram {
            bucket,
            bars,
            undated,
            total,
        })
    }
}

/// The precision of the days `from..=to` (`YYYYMMDD`) a date spans.
fn precision_of(from: i64, to: i64) -> Precision {
    if from == to {
        Precision::Day
    } else if from / 100 == to / 100 {
        Precision::Month
    } else {
        Precision::Year
    }
}

/// `YYYYMMDD` written as wide as `precision`.
fn period_text(day: i64, precision: Precision) -> String {
    let (y, m, d) = (day / 10000, day / 100 % 100, day % 100);
    match precision {
        Precision::Day => format!("{y:04}-{m:02}-{d:02}"),
        Precision::Month => format!("{y:04}-{m:02}"),
        Precision::Year => format!("{y:04}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precision_follows_the_span() {
        assert_eq!(precision_of(20160307, 20160307), Precision::Day);
        assert_eq!(precision_of(20160301, 20160331), Precision::Month);
        assert_eq!(precision_of(20160101, 20161231), Precision::Year);
        assert_eq!(period_text(20160300, Precision::Month), "2016-03");
        assert_eq!(period_text(20160000, Precision::Year), "2016");
    }
}
