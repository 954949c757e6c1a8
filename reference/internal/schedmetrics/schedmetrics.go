// Package schedmetrics reads kube-scheduler's /metrics (Prometheus text format) for the few
// series wasched-reference waits on (pkg/scheduler/metrics/metrics.go, v1.37.2):
//   - scheduler_pending_pods{queue=active|backoff|unschedulable|gated|incomplete|pending}
//     (updated synchronously as entities move between queues);
//   - scheduler_goroutines{operation="binding"} (binding cycles in flight);
//   - scheduler_inflight_events{event="PodPopped"} (pods popped and not yet done; recorded
//     asynchronously, flushed every second);
//   - scheduler_pending_async_api_calls (status patches and the like not yet sent);
//   - scheduler_schedule_attempts_total and scheduler_podgroup_schedule_attempts_total;
//   - scheduler_cache_size{type=nodes|pods|assumed_pods} (refreshed every second).
//
// The endpoint is on loopback and readable without credentials (scripts/reference.sh); its
// certificate is self-signed, so TLS verification is off. Safe for concurrent use.
package schedmetrics

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Sample is one scrape: series name → label set rendered as `k="v",...` (sorted as exposed)
// → value. Only the scheduler_ series, process_start_time_seconds and
// leader_election_master_status are kept.
type Sample map[string]map[string]float64

// Get returns the value of the series with exactly these labels ("" for none), 0 if absent.
func (s Sample) Get(name, labels string) float64 { return s[name][labels] }

// Sum adds every series of a metric whose labels contain all of `contains` (`k="v"` strings).
func (s Sample) Sum(name string, contains ...string) float64 {
	total := 0.0
	for labels, v := range s[name] {
		ok := true
		for _, c := range contains {
			if !strings.Contains(labels, c) {
				ok = false
				break
			}
		}
		if ok {
			total += v
		}
	}
	return total
}

// Queue returns scheduler_pending_pods for one queue label.
func (s Sample) Queue(q string) int { return int(s.Sum("scheduler_pending_pods", `queue="`+q+`"`)) }

// Scraper scrapes one URL.
type Scraper struct {
	URL    string
	client *http.Client
}

// New returns a scraper for url (e.g. https://127.0.0.1:10259/metrics).
func New(url string) *Scraper {
	tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}} //nolint:gosec // loopback test tool
	return &Scraper{URL: url, client: &http.Client{Transport: tr, Timeout: 5 * time.Second}}
}

// Scrape fetches and parses the metrics. O(size of the exposition).
func (s *Scraper) Scrape(ctx context.Context) (Sample, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", s.URL, resp.Status)
	}
	out := Sample{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "scheduler_") && !strings.HasPrefix(line, "process_start_time_seconds") &&
			!strings.HasPrefix(line, "leader_election_master_status") {
			continue
		}
		name, labels, rest := line, "", ""
		if i := strings.IndexByte(line, '{'); i >= 0 {
			j := strings.LastIndexByte(line, '}')
			if j < i {
				continue
			}
			name, labels, rest = line[:i], line[i+1:j], strings.TrimSpace(line[j+1:])
		} else {
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			name, rest = f[0], f[1]
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			continue
		}
		v, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			continue
		}
		if out[name] == nil {
			out[name] = map[string]float64{}
		}
		out[name][labels] = v
	}
	return out, sc.Err()
}
