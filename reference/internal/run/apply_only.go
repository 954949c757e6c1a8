package run

import (
	"context"
	"fmt"
	"time"

	"wasched.io/reference/internal/apply"
	"wasched.io/reference/internal/manifest"
	"wasched.io/reference/internal/observe"
)

// Apply creates objs in the cluster (after removing leftovers with the same names) and waits
// until the controllers have created the pods of every Job, then returns, leaving everything in
// place and scheduling nothing: the live input of `wasched schedule --kubeconfig`, on a control
// plane started with `scripts/reference.sh up --without-scheduler`. A refused object is an
// *apply.InputError (everything created is removed again).
func Apply(ctx context.Context, opts Options, objs []manifest.Object) error {
	return create(ctx, opts, objs, true)
}

// Create creates objs on top of what the cluster holds (no cleaning first: an object that
// exists already is refused by the API server) and waits for the Jobs' pods as Apply: how a user
// submits a workload to a running `wasched run` without kubectl.
func Create(ctx context.Context, opts Options, objs []manifest.Object) error {
	return create(ctx, opts, objs, false)
}

func create(ctx context.Context, opts Options, objs []manifest.Object, reset bool) error {
	c := opts.Client
	sorted := apply.Sort(objs)
	namespaces, err := apply.Namespaces(c, sorted)
	if err != nil {
		return err
	}
	cluster, err := clusterScoped(c, sorted)
	if err != nil {
		return err
	}
	if reset {
		if err := apply.Reset(ctx, c, namespaces, cluster, 2*time.Minute); err != nil {
			return fmt.Errorf("cleaning before the run: %w", err)
		}
	}
	obsCtx, stopObs := context.WithCancel(ctx)
	defer stopObs()
	obs, err := observe.Start(obsCtx, c, namespaces)
	if err != nil {
		return err
	}
	rec, err := apply.Apply(ctx, c, sorted)
	if err != nil {
		if rec != nil && reset {
			_ = apply.Reset(context.Background(), c, namespaces, rec.Cluster, 2*time.Minute)
		}
		return err
	}
	for _, s := range rec.Skipped {
		fmt.Fprintf(opts.Warn, "warning: %s: kind not read by wasched; not created\n", s)
	}
	for _, j := range rec.LateJobs {
		fmt.Fprintf(opts.Warn, "warning: Job %s; the objects after it were created before its pods\n", j)
	}
	return obs.WaitControllers(ctx, rec.Jobs, opts.ControllerTimeout)
}

// Delete removes the objects of objs (their namespaces emptied or deleted, the cluster-scoped
// ones by name) and waits until they are gone: the inverse of Apply.
func Delete(ctx context.Context, opts Options, objs []manifest.Object) error {
	c := opts.Client
	sorted := apply.Sort(objs)
	namespaces, err := apply.Namespaces(c, sorted)
	if err != nil {
		return err
	}
	cluster, err := clusterScoped(c, sorted)
	if err != nil {
		return err
	}
	return apply.Reset(ctx, c, namespaces, cluster, 2*time.Minute)
}
