// Command reference-smoke checks a running reference control plane (scripts/reference.sh check):
//  1. /version reports the expected gitVersion (v1.37.2);
//  2. the served groups include scheduling.k8s.io/v1beta1 (workloads, podgroups),
//     scheduling.k8s.io/v1alpha3 (compositepodgroups) and resource.k8s.io/v1;
//  3. kube-scheduler's /metrics answers without credentials and has scheduler_pending_pods
//     (skipped with --scheduler-metrics="");
//  4. a new Node is marked Ready by the lifecycle stand-in;
//  5. a Pod without nodeName is bound to it by kube-scheduler and marked Running;
//  6. a Job's two pods are created by kube-controller-manager's Job controller and run;
//  7. a gracefully deleted pod disappears (the stand-in finishes the deletion);
//  8. deleting the namespace removes it (namespace controller, garbage collector).
//
// Every wait watches the object, with one deadline (--timeout) for the whole check.
// Exit codes: 0 when every step passes, 1 otherwise (the failing step is named on stderr).
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	watchtools "k8s.io/client-go/tools/watch"
)

type smoke struct {
	client kubernetes.Interface
	start  time.Time
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "admin kubeconfig (required)")
	metricsURL := flag.String("scheduler-metrics", "", "kube-scheduler /metrics URL; empty skips the check")
	caFile := flag.String("ca", "", "CA bundle for --scheduler-metrics")
	version := flag.String("version", "v1.37.2", "expected /version gitVersion")
	timeout := flag.Duration("timeout", 2*time.Minute, "deadline for the whole check")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	if err := run(ctx, *kubeconfig, *metricsURL, *caFile, *version); err != nil {
		fmt.Fprintln(os.Stderr, "reference-smoke: FAILED:", err)
		os.Exit(1)
	}
	fmt.Println("reference-smoke: all checks passed")
}

func (s *smoke) pass(format string, args ...any) {
	fmt.Printf("reference-smoke: ok %5.1f s  %s\n", time.Since(s.start).Seconds(), fmt.Sprintf(format, args...))
}

func run(ctx context.Context, kubeconfig, metricsURL, caFile, version string) error {
	if kubeconfig == "" {
		return fmt.Errorf("--kubeconfig is required")
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return fmt.Errorf("kubeconfig %s: %w", kubeconfig, err)
	}
	cfg.UserAgent = "wasched-reference-smoke"
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	s := &smoke{client: client, start: time.Now()}

	info, err := client.Discovery().ServerVersion()
	if err != nil {
		return fmt.Errorf("/version: %w", err)
	}
	if info.GitVersion != version {
		return fmt.Errorf("/version: gitVersion %q, want %q", info.GitVersion, version)
	}
	s.pass("/version gitVersion %s", info.GitVersion)

	for gv, resources := range map[string][]string{
		"scheduling.k8s.io/v1beta1":  {"workloads", "podgroups"},
		"scheduling.k8s.io/v1alpha3": {"compositepodgroups"},
		"resource.k8s.io/v1":         {"resourceclaims", "deviceclasses", "resourceslices"},
	} {
		list, err := client.Discovery().ServerResourcesForGroupVersion(gv)
		if err != nil {
			return fmt.Errorf("discovery of %s: %w", gv, err)
		}
		for _, r := range resources {
			if !slices.ContainsFunc(list.APIResources, func(a metav1.APIResource) bool { return a.Name == r }) {
				return fmt.Errorf("discovery: %s does not serve %s", gv, r)
			}
		}
		s.pass("%s serves %s", gv, strings.Join(resources, ", "))
	}

	if metricsURL != "" {
		if err := checkMetrics(ctx, metricsURL, caFile); err != nil {
			return err
		}
		s.pass("kube-scheduler %s has scheduler_pending_pods (no credentials)", metricsURL)
	}

	suffix := rand.String(6)
	ns, nodeName, label := "reference-smoke-"+suffix, "reference-smoke-"+suffix, map[string]string{"wasched.io/smoke": suffix}
	if _, err := client.CoreV1().Namespaces().Create(ctx, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create namespace %s: %w", ns, err)
	}
	defer func() { // best effort when a step failed; the last step deletes both and waits
		bg := context.Background()
		_ = client.CoreV1().Namespaces().Delete(bg, ns, metav1.DeleteOptions{})
		_ = client.CoreV1().Nodes().Delete(bg, nodeName, metav1.DeleteOptions{})
	}()

	if err := s.nodeReady(ctx, nodeName, label); err != nil {
		return err
	}
	s.pass("node %s marked Ready by the lifecycle stand-in", nodeName)

	podName := "solo"
	if _, err := client.CoreV1().Pods(ns).Create(ctx, &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: podName},
		Spec:       podSpec(label),
	}, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create pod %s/%s: %w", ns, podName, err)
	}
	if err := s.podRunning(ctx, ns, fields.OneTermEqualSelector("metadata.name", podName), 1, nodeName); err != nil {
		return fmt.Errorf("pod %s/%s: %w", ns, podName, err)
	}
	s.pass("pod %s/%s bound to %s by kube-scheduler and Running", ns, podName, nodeName)

	two := int32(2)
	if _, err := client.BatchV1().Jobs(ns).Create(ctx, &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: "pair"},
		Spec: batchv1.JobSpec{
			Parallelism: &two, Completions: &two,
			Template: v1.PodTemplateSpec{Spec: func() v1.PodSpec { p := podSpec(label); p.RestartPolicy = v1.RestartPolicyNever; return p }()},
		},
	}, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create job %s/pair: %w", ns, err)
	}
	if err := s.podRunning(ctx, ns, fields.Everything(), 3, nodeName); err != nil {
		return fmt.Errorf("job %s/pair: %w", ns, err)
	}
	s.pass("job %s/pair: 2 pods created by the Job controller, bound and Running", ns)

	if err := client.CoreV1().Pods(ns).Delete(ctx, podName, metav1.DeleteOptions{}); err != nil {
		return fmt.Errorf("delete pod %s/%s: %w", ns, podName, err)
	}
	if err := s.gone(ctx, client.CoreV1().RESTClient(), "pods", ns, podName, &v1.Pod{}); err != nil {
		return fmt.Errorf("pod %s/%s: %w", ns, podName, err)
	}
	s.pass("deleted pod %s/%s disappeared (graceful deletion finished by the stand-in)", ns, podName)

	if err := client.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{}); err != nil {
		return fmt.Errorf("delete namespace %s: %w", ns, err)
	}
	if err := s.gone(ctx, client.CoreV1().RESTClient(), "namespaces", "", ns, &v1.Namespace{}); err != nil {
		return fmt.Errorf("namespace %s: %w", ns, err)
	}
	s.pass("namespace %s removed with its job and pods", ns)
	if err := client.CoreV1().Nodes().Delete(ctx, nodeName, metav1.DeleteOptions{}); err != nil {
		return fmt.Errorf("delete node %s: %w", nodeName, err)
	}
	return nil
}

func podSpec(nodeSelector map[string]string) v1.PodSpec {
	return v1.PodSpec{
		NodeSelector: nodeSelector,
		Containers: []v1.Container{{
			Name: "c", Image: "registry.k8s.io/pause:3.10",
			Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("100m")}},
		}},
	}
}

func checkMetrics(ctx context.Context, url, caFile string) error {
	pool := x509.NewCertPool()
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return fmt.Errorf("--ca: %w", err)
		}
		if !pool.AppendCertsFromPEM(pem) {
			return fmt.Errorf("--ca %s: no certificate", caFile)
		}
	}
	httpClient := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return fmt.Errorf("scheduler metrics: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("scheduler metrics: %w", err)
	}
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "scheduler_pending_pods") {
		return fmt.Errorf("scheduler metrics %s: HTTP %d, scheduler_pending_pods present: %v", url, resp.StatusCode, strings.Contains(string(body), "scheduler_pending_pods"))
	}
	return nil
}

// nodeReady creates a Node with capacity but no conditions and waits for Ready=True.
func (s *smoke) nodeReady(ctx context.Context, name string, labels map[string]string) error {
	capacity := v1.ResourceList{
		v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("8Gi"), v1.ResourcePods: resource.MustParse("110"),
	}
	if _, err := s.client.CoreV1().Nodes().Create(ctx, &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Status:     v1.NodeStatus{Capacity: capacity, Allocatable: capacity},
	}, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create node %s: %w", name, err)
	}
	lw := cache.NewListWatchFromClient(s.client.CoreV1().RESTClient(), "nodes", "", fields.OneTermEqualSelector("metadata.name", name))
	_, err := watchtools.UntilWithSync(ctx, lw, &v1.Node{}, nil, func(e watch.Event) (bool, error) {
		node, ok := e.Object.(*v1.Node)
		if !ok {
			return false, nil
		}
		for _, c := range node.Status.Conditions {
			if c.Type == v1.NodeReady && c.Status == v1.ConditionTrue {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		return fmt.Errorf("node %s never became Ready: %w", name, err)
	}
	return nil
}

// podRunning waits until want pods matching selector in ns are bound to nodeName and Running.
func (s *smoke) podRunning(ctx context.Context, ns string, selector fields.Selector, want int, nodeName string) error {
	lw := cache.NewListWatchFromClient(s.client.CoreV1().RESTClient(), "pods", ns, selector)
	running := map[string]bool{}
	_, err := watchtools.UntilWithSync(ctx, lw, &v1.Pod{}, nil, func(e watch.Event) (bool, error) {
		pod, ok := e.Object.(*v1.Pod)
		if !ok {
			return false, nil
		}
		if e.Type == watch.Deleted {
			delete(running, pod.Name)
		} else if pod.Spec.NodeName != "" {
			if pod.Spec.NodeName != nodeName {
				return false, fmt.Errorf("pod %s bound to %s, want %s", pod.Name, pod.Spec.NodeName, nodeName)
			}
			running[pod.Name] = pod.Status.Phase == v1.PodRunning
		}
		n := 0
		for _, r := range running {
			if r {
				n++
			}
		}
		return n >= want, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for %d Running pod(s) on %s: %w", want, nodeName, err)
	}
	return nil
}

// gone waits until the named object no longer exists.
func (s *smoke) gone(ctx context.Context, c cache.Getter, resource, ns, name string, obj runtime.Object) error {
	lw := cache.NewListWatchFromClient(c, resource, ns, fields.OneTermEqualSelector("metadata.name", name))
	_, err := watchtools.UntilWithSync(ctx, lw, obj, func(store cache.Store) (bool, error) {
		return len(store.List()) == 0, nil
	}, func(e watch.Event) (bool, error) { return e.Type == watch.Deleted, nil })
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("still present: %w", err)
	}
	return nil
}
