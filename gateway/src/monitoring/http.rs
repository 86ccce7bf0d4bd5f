//! The request metrics: every answer counted by API and status, and its latency (to the response head) recorded;
//! called by the request layer (`request_id`) when metrics are served.

use std::time::Duration;

pub const REQUESTS: &str = "gateway_http_requests_total";
pub const DURATION: &str = "gateway_http_request_duration_seconds";

/// Which API a path belongs to (a small fixed set, so label values stay bounded).
pub fn api_of(path: &str) -> &'static str {
    let first = path.trim_start_matches('/').split('/').next().unwrap_or("");
    match first {
        "rest" => "rest",
        "auth" => "auth",
        "storage" => "storage",
        "realtime" => "realtime",
        "health" | "ready" => "probe",
        _ => "site",
    }
}

/// Counts one answer and records its latency.
pub fn record(api: &'static str, status: u16, elapsed: Duration) {
    metrics::counter!(REQUESTS, "api" => api, "status" => status.to_string()).increment(1);
    metrics::histogram!(DURATION, "api" => api).record(elapsed.as_secs_f64());
}

#[cfg(test)]
mod tests {
    use super::api_of;

    #[test]
    fn paths_map_to_a_bounded_set_of_apis() {
        assert_eq!(api_of("/rest/v1/jobs"), "rest");
        assert_eq!(api_of("/auth/v1/token"), "auth");
        assert_eq!(api_of("/storage/v1/object/x"), "storage");
        assert_eq!(api_of("/ready"), "probe");
        assert_eq!(api_of("/jobs/some-role"), "site");
        assert_eq!(api_of("/"), "site");
    }
}
