// env.go: what every scenario shares: the admin clients, a scenario's own namespaces, nodes and
// PriorityClasses (unique names, removed at the end), builders for PodGroups and pods, the
// `wasched run` processes it starts (stderr to a log file, shown on failure) and kubeconfigs
// written for other identities (a token, a wrong port).
package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	v1 "k8s.io/api/core/v1"
	schedv1 "k8s.io/api/scheduling/v1"
	schedbeta "k8s.io/api/scheduling/v1beta1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"wasched.io/reference/internal/kube"
)

// options: what main parsed; read-only afterwards.
type options struct {
	kubeconfig    string // admin kubeconfig
	wasched       string // path of the wasched binary; "" = the scheduler already running
	schedulerName string
	rbacFile      string // deploy/rbac.yaml
	workdir       string // logs and written kubeconfigs
	verbosity     int    // -v of wasched run
}

// env: the clients every scenario uses.
type env struct {
	opts options
	cs   kubernetes.Interface
}

// newEnv connects with internal/kube (client-side rate limit QPS 2000, burst 4000: the driver
// creates as fast as the API server takes it).
func newEnv(opts options) (*env, error) {
	if opts.kubeconfig == "" {
		return nil, errors.New("--kubeconfig is required")
	}
	c, err := kube.Connect(opts.kubeconfig)
	if err != nil {
		return nil, err
	}
	return &env{opts: opts, cs: c.Core}, nil
}

// liveLabel marks every node of a scenario; its pods select it, so a scenario's pods never land
// on another scenario's (or a leftover) node.
const liveLabel = "wasched.io/live"

// sc is one scenario run: its unique id, what it created and what it started.
type sc struct {
	*env
	name   string
	id     string // unique suffix: "<name>-<random>"
	dir    string // log directory
	ctx    context.Context
	cancel context.CancelCauseFunc // a scheduler that exits unexpectedly ends the scenario

	mu        sync.Mutex
	nss       []string
	nodeNames []string
	pcs       []string
	procs     []*proc
	cleanups  []func(context.Context)
	notes     []string
}

func newScenario(parent context.Context, e *env, name string) (*sc, error) {
	id := name + "-" + rand.String(5)
	dir := filepath.Join(e.opts.workdir, id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancelCause(parent)
	return &sc{env: e, name: name, id: id, dir: dir, ctx: ctx, cancel: cancel}, nil
}

// note adds a fact to the scenario's PASS/FAIL line.
func (s *sc) note(format string, args ...any) {
	s.mu.Lock()
	s.notes = append(s.notes, fmt.Sprintf(format, args...))
	s.mu.Unlock()
}

// namespace creates a namespace "<id>[-suffix]" labelled with the scenario id.
func (s *sc) namespace(suffix string) (string, error) {
	name := s.id
	if suffix != "" {
		name += "-" + suffix
	}
	_, err := s.cs.CoreV1().Namespaces().Create(s.ctx, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{
		Name: name, Labels: map[string]string{liveLabel: s.id},
	}}, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("create namespace %s: %w", name, err)
	}
	s.mu.Lock()
	s.nss = append(s.nss, name)
	s.mu.Unlock()
	return name, nil
}

// nodeSpec describes nodes to create.
type nodeSpec struct {
	prefix string // name prefix after the scenario id
	count  int
	cpu    string            // allocatable cpu
	labels map[string]string // extra labels
}

// nodes creates count Ready nodes "<id>-<prefix>-<i>" (status sent on create, as the API server
// keeps a Node's status then; the lifecycle stand-in keeps them Ready).
func (s *sc) nodes(spec nodeSpec) ([]string, error) {
	return createNodes(s.ctx, s.cs, s.id, spec, func(name string) {
		s.mu.Lock()
		s.nodeNames = append(s.nodeNames, name)
		s.mu.Unlock()
	})
}

func createNodes(ctx context.Context, cs kubernetes.Interface, id string, spec nodeSpec, created func(string)) ([]string, error) {
	alloc := v1.ResourceList{
		v1.ResourceCPU: resource.MustParse(spec.cpu), v1.ResourceMemory: resource.MustParse("256Gi"),
		v1.ResourcePods: resource.MustParse("110"),
	}
	names := make([]string, spec.count)
	errs := make([]error, spec.count)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 32)
	for i := range spec.count {
		names[i] = fmt.Sprintf("%s-%s-%d", id, spec.prefix, i)
		labels := map[string]string{liveLabel: id, "kubernetes.io/hostname": names[i]}
		for k, v := range spec.labels {
			labels[k] = v
		}
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			now := metav1.Now()
			_, err := cs.CoreV1().Nodes().Create(ctx, &v1.Node{
				ObjectMeta: metav1.ObjectMeta{Name: names[i], Labels: labels},
				Status: v1.NodeStatus{Capacity: alloc, Allocatable: alloc, Conditions: []v1.NodeCondition{{
					Type: v1.NodeReady, Status: v1.ConditionTrue, Reason: "KubeletReady",
					Message: "wasched-live: no kubelet", LastHeartbeatTime: now, LastTransitionTime: now,
				}}},
			}, metav1.CreateOptions{})
			if err != nil {
				errs[i] = fmt.Errorf("create node %s: %w", names[i], err)
				return
			}
			created(names[i])
		}(i)
	}
	wg.Wait()
	return names, errors.Join(errs...)
}

// priorityClass creates PriorityClass "<id>-<suffix>" with value.
func (s *sc) priorityClass(suffix string, value int32) (string, error) {
	name := s.id + "-" + suffix
	_, err := s.cs.SchedulingV1().PriorityClasses().Create(s.ctx, &schedv1.PriorityClass{
		ObjectMeta: metav1.ObjectMeta{Name: name}, Value: value,
	}, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("create PriorityClass %s: %w", name, err)
	}
	s.mu.Lock()
	s.pcs = append(s.pcs, name)
	s.mu.Unlock()
	return name, nil
}

// gangSpec describes a standalone gang PodGroup and its pods.
type gangSpec struct {
	ns, name      string
	size          int    // pods (and minCount)
	cpu           string // per pod
	priorityClass string
	disruptAll    bool   // disruptionMode: all
	parent        string // parentCompositePodGroupName
	topologyKey   string
}

// podGroup builds the v1beta1 PodGroup of g.
func podGroup(g gangSpec) *schedbeta.PodGroup {
	pg := &schedbeta.PodGroup{
		ObjectMeta: metav1.ObjectMeta{Name: g.name, Namespace: g.ns},
		Spec: schedbeta.PodGroupSpec{
			SchedulingPolicy:  schedbeta.PodGroupSchedulingPolicy{Gang: &schedbeta.GangSchedulingPolicy{MinCount: int32(g.size)}},
			PriorityClassName: g.priorityClass,
		},
	}
	if g.disruptAll {
		pg.Spec.DisruptionMode = &schedbeta.DisruptionMode{All: &schedbeta.AllDisruptionMode{}}
	}
	if g.parent != "" {
		pg.Spec.ParentCompositePodGroupName = &g.parent
	}
	if g.topologyKey != "" {
		pg.Spec.SchedulingConstraints = &schedbeta.PodGroupSchedulingConstraints{Topology: []schedbeta.TopologyConstraint{{Key: g.topologyKey}}}
	}
	return pg
}

// gangPod builds pod i of g for scheduler schedulerName, selecting nodes of scenario id.
func gangPod(g gangSpec, i int, schedulerName, id string) *v1.Pod {
	group := g.name
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", g.name, i), Namespace: g.ns, Labels: map[string]string{"gang": g.name}},
		Spec: v1.PodSpec{
			SchedulerName:     schedulerName,
			PriorityClassName: g.priorityClass,
			NodeSelector:      map[string]string{liveLabel: id},
			SchedulingGroup:   &v1.PodSchedulingGroup{PodGroupName: &group},
			Containers: []v1.Container{{
				Name: "main", Image: "registry.k8s.io/pause:3.10",
				Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse(g.cpu)}},
			}},
		},
	}
}

// gang creates g's PodGroup, then its pods (8 at a time).
func (s *sc) gang(g gangSpec) error {
	if _, err := s.cs.SchedulingV1beta1().PodGroups(g.ns).Create(s.ctx, podGroup(g), metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create PodGroup %s/%s: %w", g.ns, g.name, err)
	}
	errs := make([]error, g.size)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i := range g.size {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			p := gangPod(g, i, s.opts.schedulerName, s.id)
			if _, err := s.cs.CoreV1().Pods(g.ns).Create(s.ctx, p, metav1.CreateOptions{}); err != nil {
				errs[i] = fmt.Errorf("create pod %s/%s: %w", g.ns, p.Name, err)
			}
		}(i)
	}
	wg.Wait()
	return errors.Join(errs...)
}

// inGang matches the pods of gang name.
func inGang(name string) func(*v1.Pod) bool {
	return func(p *v1.Pod) bool { return p.Labels["gang"] == name }
}

// cleanup removes what the scenario created (within 5 minutes: the API server deletes a
// collection one object at a time; pods with grace period 0, so nothing waits for a
// kubelet), ignoring errors: the names are unique, a leftover never meets a later scenario.
func (s *sc) cleanup() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for i := len(s.cleanups) - 1; i >= 0; i-- {
		s.cleanups[i](ctx)
	}
	zero := int64(0)
	for _, ns := range s.nss {
		_ = s.cs.BatchV1().Jobs(ns).DeleteCollection(ctx, metav1.DeleteOptions{PropagationPolicy: ptr(metav1.DeletePropagationBackground)}, metav1.ListOptions{})
		_ = s.cs.CoreV1().Pods(ns).DeleteCollection(ctx, metav1.DeleteOptions{GracePeriodSeconds: &zero}, metav1.ListOptions{})
		_ = s.cs.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{})
	}
	for _, n := range s.nodeNames {
		_ = s.cs.CoreV1().Nodes().Delete(ctx, n, metav1.DeleteOptions{})
	}
	for _, pc := range s.pcs {
		_ = s.cs.SchedulingV1().PriorityClasses().Delete(ctx, pc, metav1.DeleteOptions{})
	}
}

func ptr[T any](v T) *T { return &v }

// proc is one `wasched run` started by a scenario.
type proc struct {
	name     string
	cmd      *exec.Cmd
	log      string
	done     chan struct{}
	mu       sync.Mutex
	expected bool // an exit now is the scenario's doing (kill, term, bad-setup)
	port     int  // its --bind-address port when started by start (0 otherwise)
}

// freePort returns a loopback port nothing listens on now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// arena: the usual start of a scenario — a namespace of its own with its pods watched (and its
// PodGroups when watchGroups), and the nodes of spec.
func (s *sc) arena(spec nodeSpec, watchGroups bool) (string, *podTracker, *watched, error) {
	ns, err := s.namespace("")
	if err != nil {
		return "", nil, nil, err
	}
	pods, err := trackPods(s.ctx, s.cs, ns)
	if err != nil {
		return "", nil, nil, err
	}
	var pgs *watched
	if watchGroups {
		if pgs, err = s.watchPodGroups(ns); err != nil {
			return "", nil, nil, err
		}
	}
	if _, err := s.nodes(spec); err != nil {
		return "", nil, nil, err
	}
	return ns, pods, pgs, nil
}

// runOpts: what differs between the `wasched run` processes of the scenarios.
type runOpts struct {
	kubeconfig  string   // default: the admin kubeconfig
	leaderElect bool     // --leader-elect (false unless asked)
	extra       []string // further flags (--lease-name, --identity, ...)
}

// start runs `wasched run --kubeconfig K --scheduler-name NAME --leader-elect=B --bind-address
// 127.0.0.1:FREE -v N EXTRA...`. An exit the scenario did not ask for ends the scenario.
func (s *sc) start(name string, o runOpts) (*proc, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	if o.kubeconfig == "" {
		o.kubeconfig = s.opts.kubeconfig
	}
	full := []string{"run", "--kubeconfig", o.kubeconfig, "--scheduler-name", s.opts.schedulerName,
		"--leader-elect=" + strconv.FormatBool(o.leaderElect), "--bind-address", "127.0.0.1:" + strconv.Itoa(port),
		"-v", strconv.Itoa(s.opts.verbosity)}
	full = append(full, o.extra...)
	p, err := s.startRaw(name, false, full...)
	if p != nil {
		p.port = port
	}
	return p, err
}

// startRaw runs the wasched binary with exactly args; expectExit marks a process whose exit is
// the point (bad-setup).
func (s *sc) startRaw(name string, expectExit bool, args ...string) (*proc, error) {
	p := &proc{name: name, log: filepath.Join(s.dir, name+".log"), done: make(chan struct{}), expected: expectExit}
	f, err := os.Create(p.log)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(f, "# %s %s\n", s.opts.wasched, strings.Join(args, " "))
	p.cmd = exec.Command(s.opts.wasched, args...)
	p.cmd.Stdout, p.cmd.Stderr = f, f
	// Its own process group: kill reaches a wrapper's children too (a crash is a crash).
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		f.Close()
		return nil, fmt.Errorf("start %s: %w", s.opts.wasched, err)
	}
	s.mu.Lock()
	s.procs = append(s.procs, p)
	s.mu.Unlock()
	go func() {
		werr := p.cmd.Wait()
		f.Close()
		close(p.done)
		p.mu.Lock()
		expected := p.expected
		p.mu.Unlock()
		if !expected {
			s.cancel(fmt.Errorf("wasched %s (pid %d) exited unexpectedly: %v", name, p.cmd.Process.Pid, werr))
		}
	}()
	return p, nil
}

func (p *proc) expect() {
	p.mu.Lock()
	p.expected = true
	p.mu.Unlock()
}

// kill sends SIGKILL to the process group and waits (10 s at most) for the exit.
func (p *proc) kill() error {
	p.expect()
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	return p.waitExit(10 * time.Second)
}

// term sends SIGTERM and waits up to timeout; the contract is exit 0.
func (p *proc) term(timeout time.Duration) error {
	select {
	case <-p.done:
		return nil // already gone (killed by the scenario; an unexpected exit was reported)
	default:
	}
	p.expect()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	// Whatever the outcome, nothing of its process group outlives the scenario.
	defer syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL) //nolint:errcheck // ESRCH when none is left
	if err := p.waitExit(timeout); err != nil {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
		return fmt.Errorf("%s did not exit within %s of SIGTERM (killed)", p.name, timeout)
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		return fmt.Errorf("%s exited %d after SIGTERM, want 0", p.name, code)
	}
	return nil
}

// waitExit waits for the process to end.
func (p *proc) waitExit(timeout time.Duration) error {
	select {
	case <-p.done:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("%s still running after %s", p.name, timeout)
	}
}

// exitCode is the exit status once done (-1 for a signal).
func (p *proc) exitCode() int { return p.cmd.ProcessState.ExitCode() }

// tail returns the last n lines of the process's log.
func (p *proc) tail(n int) string {
	b, err := os.ReadFile(p.log)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// stopAll sends SIGTERM to every process still running; each must exit 0 within 15 s.
func (s *sc) stopAll() error {
	var errs []error
	for _, p := range s.procs {
		if err := p.term(15 * time.Second); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// writeKubeconfig writes a kubeconfig for the admin kubeconfig's cluster (server replaced when
// server != "") with a bearer token (or the admin's credentials when token == "").
func (s *sc) writeKubeconfig(file, server, token string) (string, error) {
	cfg, err := clientcmd.LoadFromFile(s.opts.kubeconfig)
	if err != nil {
		return "", err
	}
	ctxName := cfg.CurrentContext
	kctx := cfg.Contexts[ctxName]
	if kctx == nil {
		return "", fmt.Errorf("kubeconfig %s: no current context", s.opts.kubeconfig)
	}
	cluster := cfg.Clusters[kctx.Cluster].DeepCopy()
	if server != "" {
		cluster.Server = server
	}
	auth := cfg.AuthInfos[kctx.AuthInfo].DeepCopy()
	if token != "" {
		auth = &clientcmdapi.AuthInfo{Token: token}
	}
	out := clientcmdapi.NewConfig()
	out.Clusters["live"] = cluster
	out.AuthInfos["live"] = auth
	out.Contexts["live"] = &clientcmdapi.Context{Cluster: "live", AuthInfo: "live"}
	out.CurrentContext = "live"
	path := filepath.Join(s.dir, file)
	return path, clientcmd.WriteToFile(*out, path)
}
