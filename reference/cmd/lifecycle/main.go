// Command lifecycle is the kubelet stand-in of the reference control plane
// (scripts/reference.sh starts it): it keeps Nodes Ready, marks bound pods Running and finishes
// graceful pod deletions, as described in internal/lifecycle. It runs under its own identity
// (a client certificate bound to a ClusterRole that scripts/reference.sh creates).
//
// Usage: lifecycle --kubeconfig FILE [--ready-file FILE] [--workers N] [--qps Q]
// The ready file is written once both informers have listed; it is removed on exit.
// Exit codes: 0 after SIGINT/SIGTERM, 1 on a bad flag or kubeconfig, or when the caches never sync.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"wasched.io/reference/internal/lifecycle"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the stand-in's identity (required)")
	readyFile := flag.String("ready-file", "", "file written once the caches have synced")
	workers := flag.Int("workers", 4, "workers per queue (nodes, pods)")
	qps := flag.Float64("qps", 500, "client queries per second (burst is twice this)")
	flag.Parse()
	if err := run(*kubeconfig, *readyFile, *workers, *qps); err != nil {
		fmt.Fprintln(os.Stderr, "lifecycle:", err)
		os.Exit(1)
	}
}

func run(kubeconfig, readyFile string, workers int, qps float64) error {
	if kubeconfig == "" {
		return fmt.Errorf("--kubeconfig is required")
	}
	if workers < 1 || qps <= 0 {
		return fmt.Errorf("--workers must be at least 1 and --qps positive")
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return fmt.Errorf("kubeconfig %s: %w", kubeconfig, err)
	}
	cfg.QPS, cfg.Burst = float32(qps), int(2*qps)
	cfg.UserAgent = "wasched-lifecycle"
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	factory := informers.NewSharedInformerFactory(client, 0)
	controller, err := lifecycle.New(client, factory)
	if err != nil {
		return err
	}
	factory.Start(ctx.Done())
	defer factory.Shutdown()
	if !controller.WaitForSync(ctx) {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("informer caches did not sync")
	}
	if readyFile != "" {
		if err := os.WriteFile(readyFile, []byte("synced\n"), 0o644); err != nil {
			return err
		}
		defer os.Remove(readyFile)
	}
	slog.Info("lifecycle stand-in running", "workers", workers)
	controller.Run(ctx, workers)
	return nil
}
