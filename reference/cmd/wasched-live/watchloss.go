// watchloss.go: the `watch-loss` scenario — kube-apiserver restarts under a running `wasched run`;
// its watches break, it relists, and scheduling carries on.

package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// watchLoss: a gang binds; kube-apiserver is killed (SIGKILL: a crash; every watch ends) and started
// again with the same command line (the control plane of tests/live/run_scheduler.sh, found
// through WASCHED_REFERENCE_STATE; its pid file is updated so that `reference.sh down` stops
// the new process); a second gang created after the restart must bind, and `wasched run` must
// not have exited. Skipped without WASCHED_REFERENCE_STATE.
func watchLoss(s *sc) error {
	state := os.Getenv("WASCHED_REFERENCE_STATE")
	if state == "" {
		return errSkip("needs WASCHED_REFERENCE_STATE (the control plane's state folder; tests/live/run_scheduler.sh sets it)")
	}
	p, err := s.start("watch-loss", runOpts{})
	if err != nil {
		return err
	}
	ns, pods, _, err := s.arena(nodeSpec{prefix: "n", count: 2, cpu: "8"}, false)
	if err != nil {
		return err
	}
	if err := s.gang(gangSpec{ns: ns, name: "before", size: 4, cpu: "1"}); err != nil {
		return err
	}
	if err := pods.waitBound(s.ctx, bindDeadline, "gang before the restart bound", 4, inGang("before")); err != nil {
		return err
	}
	down, err := restartAPIServer(s.ctx, state)
	if err != nil {
		return err
	}
	if err := s.gang(gangSpec{ns: ns, name: "after", size: 4, cpu: "1"}); err != nil {
		return err
	}
	if err := pods.waitBound(s.ctx, 2*time.Minute, "gang created after the restart bound", 4, inGang("after")); err != nil {
		return err
	}
	// The lost watches are visible in wasched's log (it relists).
	logText, err := os.ReadFile(p.log)
	if err != nil {
		return err
	}
	if !strings.Contains(string(logText), "relisted ") {
		return fmt.Errorf("wasched's log (%s) says nothing about relisting after the restart", p.log)
	}
	s.note("kube-apiserver down %.1fs and back; 4/4 bound before, 4/4 after; relists logged", down.Seconds())
	return nil
}

// restartAPIServer kills kube-apiserver and starts it again with its own command line and
// environment, then waits for /readyz (an HTTP endpoint, not an API object: polled every 100 ms,
// 60 s deadline). Returns how long it was unavailable.
func restartAPIServer(ctx context.Context, state string) (time.Duration, error) {
	pidFile := filepath.Join(state, "pids", "kube-apiserver.pid")
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		return 0, err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", pidFile, err)
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return 0, fmt.Errorf("kube-apiserver pid %d: %w", pid, err)
	}
	args := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
	port := ""
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--secure-port="); ok {
			port = v
		}
	}
	if port == "" {
		return 0, fmt.Errorf("kube-apiserver's command line has no --secure-port")
	}
	started := time.Now()
	proc, err := os.FindProcess(pid)
	if err != nil {
		return 0, err
	}
	if err := proc.Signal(syscall.SIGKILL); err != nil {
		return 0, fmt.Errorf("kill kube-apiserver: %w", err)
	}
	// The old process must be gone and its port free before the new one starts. A zombie leader
	// thread is not enough (the other threads, and the listening socket, can outlive it: seen
	// once as "bind: address already in use"), so the port itself is tried.
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		l, err := net.Listen("tcp", "127.0.0.1:"+port)
		if err != nil {
			return false, nil
		}
		return l.Close() == nil, nil
	}); err != nil {
		return 0, fmt.Errorf("kube-apiserver pid %d: its port %s still in use after SIGKILL: %w", pid, port, err)
	}
	logFile, err := os.OpenFile(filepath.Join(state, "logs", "kube-apiserver.log"), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return 0, err
	}
	defer logFile.Close()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("start kube-apiserver again: %w", err)
	}
	if err := os.WriteFile(pidFile, []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o644); err != nil {
		return 0, err
	}
	go func() { _ = cmd.Wait() }() // reaped when it ends (reference.sh down stops it)
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	url := "https://127.0.0.1:" + port + "/readyz"
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		resp, err := client.Get(url)
		if err != nil {
			return false, nil
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, nil
	}); err != nil {
		return 0, fmt.Errorf("kube-apiserver not ready again within 60 s: %w", err)
	}
	return time.Since(started), nil
}
