//! Distances on the Earth: the one great-circle function every crate uses
//! (place resolution, stated coordinates, the archive's `--near` filter).

/// Mean Earth radius in km (IUGG), the radius GeoNames' own distances use.
pub const EARTH_RADIUS_KM: f64 = 6371.0088;

/// Great-circle (haversine) distance in km between two WGS84 points given
/// as `(latitude, longitude)` in degrees.
pub fn distance_km((lat1, lon1): (f64, f64), (lat2, lon2): (f64, f64)) -> f64 {
    let (p1, p2) = (lat1.to_radians(), lat2.to_radians());
    let dp = p2 - p1;
    let dl = (lon2 - lon1).to_radians();
    let h = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    // `min` keeps rounding from pushing antipodal points past asin's domain.
    2.0 * EARTH_RADIUS_KM * h.sqrt().min(1.0).asin()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_distances() {
        // Damascus to Aleppo is about 310 km; a point to itself is 0.
        let damascus = (33.5102, 36.2913);
        let aleppo = (36.2021, 37.1343);
        let d = distance_km(damascus, aleppo);
        assert!((300.0..320.0).contains(&d), "{d}");
        assert_eq!(distance_km(damascus, damascus), 0.0);
        // Half the circumference between antipodes, symmetric.
        let half = std::f64::consts::PI * EARTH_RADIUS_KM;
        assert!((distance_km((0.0, 0.0), (0.0, 180.0)) - half).abs() < 1e-6);
        assert_eq!(distance_km(aleppo, damascus), d);
    }
}
