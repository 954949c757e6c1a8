// bench.go: throughput of a live scheduler on the real control plane, and the API server's own
// ceiling for the same pods.
//
//	wasched-live bench --kubeconfig K [--wasched PATH] [--scheduler-name NAME] --nodes 500 --gangs 1000 --gang-size 5
//	wasched-live bench-ceiling --kubeconfig K --nodes 500 --gangs 1000 --gang-size 5
//
// Both create the nodes first, then every gang (its PodGroup, then its pods) from --workers
// goroutines as fast as the client allows (QPS 2000, burst 4000). bench waits until the watch
// shows every pod bound; bench-ceiling has no scheduler: each worker binds a gang's pods itself
// through pods/binding right after creating them (round-robin over the nodes), which is the most
// any scheduler could reach through this API server. Measured from watch timestamps: wall time
// from the first create to the last pod seen bound, pods/s, and per gang the time from its last
// pod created to its last pod seen bound (p50, p99). One JSON line per run on stdout.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
)

// benchResult is the JSON line of one run.
type benchResult struct {
	Mode          string  `json:"mode"` // bench | bench-ceiling
	Scheduler     string  `json:"scheduler"`
	Nodes         int     `json:"nodes"`
	Gangs         int     `json:"gangs"`
	GangSize      int     `json:"gang_size"`
	Pods          int     `json:"pods"`
	CreateSeconds float64 `json:"create_s"` // first create → last create returned
	WallSeconds   float64 `json:"wall_s"`   // first create → last pod seen bound
	PodsPerSecond float64 `json:"pods_per_s"`
	GangP50Ms     float64 `json:"gang_latency_p50_ms"` // last pod created → last pod seen bound
	GangP99Ms     float64 `json:"gang_latency_p99_ms"`
	GangMaxMs     float64 `json:"gang_latency_max_ms"`
}

func runBench(mode string, args []string) int {
	fs := flag.NewFlagSet("wasched-live "+mode, flag.ContinueOnError)
	var opts options
	fs.StringVar(&opts.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "admin kubeconfig of the control plane")
	fs.StringVar(&opts.wasched, "wasched", "", "the wasched binary to start as `wasched run`; empty: the running scheduler")
	fs.StringVar(&opts.schedulerName, "scheduler-name", "wasched", "spec.schedulerName of the pods (bench)")
	fs.StringVar(&opts.workdir, "workdir", "", "logs (default: a new temporary folder)")
	fs.IntVar(&opts.verbosity, "v", 1, "-v of wasched run")
	nodes := fs.Int("nodes", 500, "nodes to create")
	gangs := fs.Int("gangs", 1000, "gangs (PodGroups) to create")
	size := fs.Int("gang-size", 5, "pods per gang (minCount)")
	nodeCPU := fs.Int("node-cpu", 32, "allocatable CPUs per node")
	podCPU := fs.String("pod-cpu", "100m", "CPU request per pod")
	workers := fs.Int("workers", 32, "concurrent creating goroutines")
	timeout := fs.Duration("timeout", 15*time.Minute, "deadline for all pods to be bound")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *nodes < 1 || *gangs < 1 || *size < 1 || *workers < 1 {
		fmt.Fprintln(os.Stderr, "error: bench takes only flags; --nodes, --gangs, --gang-size, --workers must be ≥ 1")
		return 2
	}
	if opts.workdir == "" {
		var err error
		if opts.workdir, err = os.MkdirTemp("", "wasched-live-bench-"); err != nil {
			fmt.Fprintln(os.Stderr, "error:", err)
			return 1
		}
	}
	e, err := newEnv(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		return 1
	}
	ctx, cancel := context.WithTimeoutCause(context.Background(), *timeout+5*time.Minute, errors.New("bench deadline passed"))
	defer cancel()
	s, err := newScenario(ctx, e, mode)
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		return 1
	}
	res, err := bench(s, mode, *nodes, *gangs, *size, *nodeCPU, *podCPU, *workers, *timeout)
	if serr := s.stopAll(); err == nil {
		err = serr
	}
	if err == nil {
		line, _ := json.Marshal(res)
		fmt.Println(string(line))
	}
	// The next run must not share the API server with these pods: removed before returning.
	s.cleanup()
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %s: %v\n", mode, err)
		for _, p := range s.procs {
			fmt.Fprintf(os.Stderr, "--- last lines of %s (%s)\n%s\n", p.name, p.log, p.tail(40))
		}
		return 1
	}
	return 0
}

func bench(s *sc, mode string, nodes, gangs, size, nodeCPU int, podCPU string, workers int, timeout time.Duration) (*benchResult, error) {
	ns, err := s.namespace("")
	if err != nil {
		return nil, err
	}
	pods, err := trackPods(s.ctx, s.cs, ns)
	if err != nil {
		return nil, err
	}
	names, err := s.nodes(nodeSpec{prefix: "n", count: nodes, cpu: strconv.Itoa(nodeCPU)})
	if err != nil {
		return nil, err
	}
	schedulerName := s.opts.schedulerName
	if mode == "bench-ceiling" {
		schedulerName = "wasched-live-nobody"
	} else if s.opts.wasched != "" {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		// The same client rate limit as the reference kube-scheduler's configuration
		// (scripts/reference.sh: clientConnection qps 500, burst 1000), so that neither side is
		// held back by its own client where the other is not.
		config := filepath.Join(s.dir, "wasched-config.yaml")
		if err := os.WriteFile(config, []byte("apiVersion: kubescheduler.config.k8s.io/v1\n"+
			"kind: KubeSchedulerConfiguration\nclientConnection: {qps: 500, burst: 1000}\n"), 0o644); err != nil {
			return nil, err
		}
		if _, err := s.startRaw("wasched", false, "run", "--kubeconfig", s.opts.kubeconfig, "--config", config,
			"--scheduler-name", schedulerName, "--leader-elect=false", "--bind-address", fmt.Sprintf("127.0.0.1:%d", port),
			"-v", strconv.Itoa(s.opts.verbosity)); err != nil {
			return nil, err
		}
		// /readyz is an HTTP endpoint, not an API object: polled (100 ms, 60 s deadline) so that
		// wasched's start-up is not counted as scheduling time.
		url := fmt.Sprintf("http://127.0.0.1:%d/readyz", port)
		if err := wait.PollUntilContextTimeout(s.ctx, 100*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return false, nil
			}
			resp.Body.Close()
			return resp.StatusCode == http.StatusOK, nil
		}); err != nil {
			return nil, fmt.Errorf("wasched %s never ready: %w", url, err)
		}
	}
	total := gangs * size
	lastCreated := make([]time.Time, gangs)
	errs := make([]error, gangs)
	jobs := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for gi := range jobs {
				errs[gi] = createGang(s, ns, gi, size, podCPU, schedulerName, mode == "bench-ceiling", names, &lastCreated[gi])
			}
		}()
	}
	for gi := range gangs {
		jobs <- gi
	}
	close(jobs)
	wg.Wait()
	created := time.Since(start)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := pods.waitBound(s.ctx, timeout, fmt.Sprintf("all %d pods bound", total), total, nil); err != nil {
		return nil, err
	}
	bound := pods.bindTimes()
	var last time.Time
	lat := make([]float64, gangs)
	for gi := range gangs {
		var gl time.Time
		for i := range size {
			t := bound[fmt.Sprintf("g%d-%d", gi, i)]
			if t.After(gl) {
				gl = t
			}
		}
		if gl.After(last) {
			last = gl
		}
		lat[gi] = float64(gl.Sub(lastCreated[gi]).Microseconds()) / 1000
	}
	sort.Float64s(lat)
	wall := last.Sub(start).Seconds()
	name := schedulerName
	if mode == "bench" && s.opts.wasched != "" {
		name += " (wasched run)"
	}
	return &benchResult{
		Mode: mode, Scheduler: name, Nodes: nodes, Gangs: gangs, GangSize: size, Pods: total,
		CreateSeconds: round(created.Seconds()), WallSeconds: round(wall), PodsPerSecond: round(float64(total) / wall),
		GangP50Ms: round(percentile(lat, 0.50)), GangP99Ms: round(percentile(lat, 0.99)), GangMaxMs: round(lat[len(lat)-1]),
	}, nil
}

// createGang creates PodGroup g<gi> and its pods; with bindSelf it binds them through
// pods/binding right away (node = pod index round-robin over nodes; 16 bindings in flight).
func createGang(s *sc, ns string, gi, size int, podCPU, schedulerName string, bindSelf bool, nodes []string, lastCreated *time.Time) error {
	g := gangSpec{ns: ns, name: fmt.Sprintf("g%d", gi), size: size, cpu: podCPU}
	if _, err := s.cs.SchedulingV1beta1().PodGroups(ns).Create(s.ctx, podGroup(g), metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create PodGroup %s: %w", g.name, err)
	}
	for i := range size {
		p := gangPod(g, i, schedulerName, s.id)
		if _, err := s.cs.CoreV1().Pods(ns).Create(s.ctx, p, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create pod %s: %w", p.Name, err)
		}
	}
	*lastCreated = time.Now()
	if !bindSelf {
		return nil
	}
	// A gang's bindings go out together (16 at a time), as a scheduler binds an assumed gang.
	errs := make([]error, size)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for i := range size {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			name := fmt.Sprintf("%s-%d", g.name, i)
			node := nodes[(gi*size+i)%len(nodes)]
			if err := s.cs.CoreV1().Pods(ns).Bind(s.ctx, &v1.Binding{ObjectMeta: metav1.ObjectMeta{Name: name},
				Target: v1.ObjectReference{Kind: "Node", Name: node}}, metav1.CreateOptions{}); err != nil {
				errs[i] = fmt.Errorf("bind %s to %s: %w", name, node, err)
			}
		}(i)
	}
	wg.Wait()
	return errors.Join(errs...)
}

// percentile of sorted values (nearest rank).
func percentile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	if i < 0 {
		i = 0
	}
	if i >= len(sorted) {
		i = len(sorted) - 1
	}
	return sorted[i]
}

func round(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }
