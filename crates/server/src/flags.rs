//! Verification flags in words, for the record page: what each flag means
//! for this record ("says Wednesday; 3 March 2013 was a Sunday").

use serde_json::{json, Value};

const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// `[{flag, reason}]` for a record's flags.
pub fn reasons(record: &Value) -> Value {
    let flags = record["flags"].as_array().cloned().unwrap_or_default();
    flags
        .iter()
        .filter_map(Value::as_str)
        .map(|flag| json!({"flag": flag, "reason": reason(flag, record)}))
        .collect()
}

fn reason(flag: &str, record: &Value) -> String {
    match flag {
        "weekday_mismatch" => weekday_reason(record).unwrap_or_else(|| {
            "a weekday the caption states disagrees with its date".to_string()
        }),
        "unverified" => "the caption says what it shows is not independently verified, or attributes it to others".into(),
        "handout" => "a handout: the image was supplied by a party that is not the agency or the photographer".into(),
        "still_from_video" => "a still taken from video".into(),
        "file_photo" => "a file photo: taken earlier than the story it illustrates".into(),
        "truncated" => "the caption is cut short and no full version was found".into(),
        "no_credit" => "no credit line was found".into(),
        "no_date" => "no date taken was found".into(),
        "location_unresolved" => "a place finer than the province is named, but not found in the gazetteer".into(),
        other => format!("flagged {other}"),
    }
}

/// "says Wednesday; 3 March 2013 was a Sunday", from the date taken and
/// the first weekday the caption names.
fn weekday_reason(record: &Value) -> Option<String> {
    let date = record["date_created"].as_str()?;
    let mut parts = date.split('-').map(str::parse::<i32>);
    let (y, m, d) = (
        parts.next()?.ok()?,
        parts.next()?.ok()?,
        parts.next()?.ok()?,
    );
    let day = jiff::civil::Date::new(y as i16, m as i8, d as i8).ok()?;
    let actual = WEEKDAYS[day.weekday().to_monday_zero_offset() as usize];
    let text = record["text"].as_str()?;
    let stated = WEEKDAYS
        .iter()
        .filter_map(|w| text.find(w).map(|at| (at, *w)))
        .min()?
        .1;
    let month = day.strftime("%B");
    Some(format!("says {stated}; {d} {month} {y} was a {actual}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weekday_mismatch_says_both_days() {
        let record = json!({
            "text": "Smoke rises over Douma on Wednesday, March 3, 2013.",
            "date_created": "2013-03-03",
            "flags": ["weekday_mismatch", "no_credit"],
        });
        let reasons = reasons(&record);
        assert_eq!(
            reasons[0]["reason"],
            "says Wednesday; 3 March 2013 was a Sunday"
        );
        assert_eq!(reasons[1]["reason"], "no credit line was found");
    }
}
