package deploy

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
)

// root is the repository root, relative to this package's directory.
const root = ".."

// loadCompose loads and validates a compose file (schema validation and
// consistency checks on, as `docker compose config` does).
func loadCompose(t *testing.T, dir, file string) (*types.Project, error) {
	t.Helper()
	env := types.Mapping{}
	for k, v := range testPasswords {
		env[k] = v
	}
	return loadComposeEnv(t, dir, file, env)
}

// testPasswords are the NATS passwords docker compose takes from its
// environment (docker-compose.yml refuses to start without them).
var testPasswords = types.Mapping{"WYVERN_COORDINATOR_PASSWORD": "pw-coordinator",
	"WYVERN_WORKER_PASSWORD": "pw-worker", "WYVERN_SUBMIT_PASSWORD": "pw-submit"}

// loadComposeEnv loads a compose file with the environment env.
func loadComposeEnv(t *testing.T, dir, file string, env types.Mapping) (*types.Project, error) {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return loader.LoadWithContext(context.Background(), types.ConfigDetails{
		WorkingDir:  abs,
		ConfigFiles: []types.ConfigFile{{Filename: filepath.Join(abs, file)}},
		Environment: env,
	}, func(o *loader.Options) {
		o.SetProjectName("wyvern", true)
		o.ResolvePaths = true
	})
}

func TestComposeIsValid(t *testing.T) {
	p, err := loadCompose(t, root, "docker-compose.yml")
	if err != nil {
		t.Fatalf("docker-compose.yml is not a valid Compose file: %v", err)
	}
	for _, name := range []string{"nats", "coordinator", "worker", "prometheus", "grafana"} {
		if _, ok := p.Services[name]; !ok {
			t.Errorf("service %q missing (have %v)", name, p.ServiceNames())
		}
	}
	if _, ok := p.DisabledServices["cli"]; !ok {
		t.Errorf("the cli service should exist behind a profile, so that `up` does not start it")
	}
	if t.Failed() {
		t.FailNow()
	}

	// NATS runs JetStream with its store on the named volume.
	nats := p.Services["nats"]
	if !strings.HasPrefix(nats.Image, "nats:2") {
		t.Errorf("nats image %q, want nats:2", nats.Image)
	}
	if !slices.Contains(nats.Command, "-js") {
		t.Errorf("nats command %q lacks -js (JetStream)", nats.Command)
	}
	storeDir := flagValue(nats.Command, "-sd")
	if storeDir == "" {
		t.Errorf("nats command %q sets no store dir (-sd)", nats.Command)
	}
	if v := mountAt(nats, storeDir); v == nil || v.Type != types.VolumeTypeVolume {
		t.Errorf("nats store dir %q is not on a named volume", storeDir)
	} else if _, ok := p.Volumes[v.Source]; !ok {
		t.Errorf("nats volume %q is not declared under volumes:", v.Source)
	}

	// Coordinator and workers: the wyvern image, the right subcommand,
	// NATS by service name, metrics on a port Prometheus scrapes.
	for _, name := range []string{"coordinator", "worker"} {
		s := p.Services[name]
		if s.Build == nil {
			t.Errorf("%s: no build section: it must be built from the repository's Dockerfile", name)
		} else if _, err := os.Stat(filepath.Join(s.Build.Context, "Dockerfile")); err != nil {
			t.Errorf("%s: build context %s has no Dockerfile: %v", name, s.Build.Context, err)
		}
		if len(s.Command) == 0 || s.Command[0] != name {
			t.Errorf("%s: command %q does not start with %q", name, s.Command, name)
		}
		if got := flagValue(s.Command, "--nats"); got != "nats://nats:4222" {
			t.Errorf("%s: --nats %q, want nats://nats:4222", name, got)
		}
		if got := flagValue(s.Command, "--metrics"); got != ":9090" {
			t.Errorf("%s: --metrics %q, want :9090 (the port prometheus.yml scrapes)", name, got)
		}
		if _, ok := s.DependsOn["nats"]; !ok {
			t.Errorf("%s does not depend on nats", name)
		}
		if s.Restart == "" || s.Restart == "no" {
			t.Errorf("%s: restart %q: it exits when NATS is not up yet, so it must be restarted", name, s.Restart)
		}
	}

	// Workers scale: replicas, and nothing that pins one container.
	w := p.Services["worker"]
	if w.Deploy == nil || w.Deploy.Replicas == nil || *w.Deploy.Replicas < 1 {
		t.Errorf("worker: no deploy.replicas")
	}
	if w.ContainerName != "" {
		t.Errorf("worker: container_name %q prevents --scale", w.ContainerName)
	}
	for _, port := range w.Ports {
		if port.Published != "" {
			t.Errorf("worker: host port %s prevents --scale", port.Published)
		}
	}

	// Prometheus and Grafana mount the files of deploy/.
	mounts := map[string][]string{
		"prometheus": {"deploy/prometheus/prometheus.yml"},
		"grafana":    {"deploy/grafana/provisioning", "deploy/grafana/dashboards"},
	}
	for svc, want := range mounts {
		for _, rel := range want {
			src, err := filepath.Abs(filepath.Join(root, rel))
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, v := range p.Services[svc].Volumes {
				if v.Type == types.VolumeTypeBind && v.Source == src {
					found = true
					if !v.ReadOnly {
						t.Errorf("%s: %s is mounted read-write", svc, rel)
					}
				}
			}
			if !found {
				t.Errorf("%s does not mount %s", svc, rel)
			}
			if _, err := os.Stat(src); err != nil {
				t.Errorf("%s mounts %s, which does not exist", svc, rel)
			}
		}
	}
	g := p.Services["grafana"]
	if home := g.Environment["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"]; home == nil || mountAt(g, filepath.Dir(*home)) == nil {
		t.Errorf("grafana: the home dashboard path is not inside a mounted directory")
	}
}

// The loader really validates: a file that breaks the schema is rejected.
func TestComposeValidationRejectsBadFiles(t *testing.T) {
	for name, body := range map[string]string{
		"replicas-not-a-number": "services:\n  worker:\n    image: wyvern\n    deploy:\n      replicas: many\n",
		"unknown-key":           "services:\n  worker:\n    image: wyvern\n    replica: 2\n",
		"undeclared-volume":     "services:\n  nats:\n    image: nats:2\n    volumes: [\"store:/data\"]\n",
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "compose.yml"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := loadCompose(t, dir, "compose.yml"); err == nil {
			t.Errorf("%s: loaded without error", name)
		}
	}
}

func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	df := string(b)
	for _, re := range []string{
		`(?m)^FROM golang:1\.26\S* AS build$`, // build stage on the Go the module needs
		`go build .*\./cmd/wyvern`,            // the one binary
		`apt-get install .*clang-14`,          // submit/check compile C
		`apt-get install .*llvm-14`,           // llvm-dis-14 for .bc input
		`(?m)^COPY --from=build \S+ /usr/local/bin/wyvern$`,
		`(?m)^ENTRYPOINT \["wyvern"\]$`,
	} {
		if !regexp.MustCompile(re).MatchString(df) {
			t.Errorf("Dockerfile does not match %s", re)
		}
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (1\.\d+)`).FindSubmatch(gomod)
	if m == nil || !strings.Contains(df, "golang:"+string(m[1])) {
		t.Errorf("Dockerfile's Go image does not match go.mod's go %s", m[1])
	}
	// The build context keeps what the build needs.
	di, err := os.ReadFile(filepath.Join(root, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(di), "\n") {
		switch strings.Trim(strings.TrimSpace(line), "/") {
		case "go.mod", "go.sum", "cmd", "ir", "vm", "*.go", "**/*.go", "*.h", "**/*.h":
			t.Errorf(".dockerignore excludes %q, which the build needs", line)
		}
	}
}

// flagValue returns the value after flag in args ("--f v" or "--f=v").
func flagValue(args []string, flag string) string {
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, flag+"="); ok {
			return v
		}
	}
	return ""
}

// mountAt returns the service's mount whose target is dir, or nil.
func mountAt(s types.ServiceConfig, dir string) *types.ServiceVolumeConfig {
	for i, v := range s.Volumes {
		if v.Target == dir {
			return &s.Volumes[i]
		}
	}
	return nil
}

// TestComposeNATSAuth: NATS runs deploy/nats/nats-server.conf with the
// three roles' passwords from the environment, each wyvern service logs in
// as its role with its password, and without the passwords compose refuses
// to start (rather than running an open server).
func TestComposeNATSAuth(t *testing.T) {
	p, err := loadCompose(t, root, "docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	nats := p.Services["nats"]
	conf := flagValue(nats.Command, "-c")
	if conf == "" {
		t.Fatalf("nats command %q names no configuration file (-c)", nats.Command)
	}
	src, _ := filepath.Abs(filepath.Join(root, "deploy/nats"))
	if v := mountAt(nats, filepath.Dir(conf)); v == nil || v.Source != src || !v.ReadOnly {
		t.Errorf("nats: %s is not deploy/nats mounted read-only (%+v)", filepath.Dir(conf), v)
	}
	if _, err := os.Stat(filepath.Join(src, filepath.Base(conf))); err != nil {
		t.Errorf("nats: %v", err)
	}
	for k, want := range testPasswords {
		if got := nats.Environment[k]; got == nil || *got != want {
			t.Errorf("nats: %s = %v, want the value from the environment", k, got)
		}
	}
	for svc, role := range map[string]string{"coordinator": "coordinator", "worker": "worker", "cli": "submitter"} {
		s, ok := p.Services[svc]
		if !ok {
			s, ok = p.DisabledServices[svc]
		}
		if !ok {
			t.Errorf("no service %s", svc)
			continue
		}
		pw := map[string]string{"coordinator": "pw-coordinator", "worker": "pw-worker", "submitter": "pw-submit"}[role]
		if u := s.Environment["WYVERN_NATS_USER"]; u == nil || *u != role {
			t.Errorf("%s: WYVERN_NATS_USER %v, want %s", svc, u, role)
		}
		if v := s.Environment["WYVERN_NATS_PASSWORD"]; v == nil || *v != pw {
			t.Errorf("%s: WYVERN_NATS_PASSWORD %v, want the %s password", svc, v, role)
		}
		for _, a := range s.Command {
			if strings.Contains(a, "pw-") {
				t.Errorf("%s: a password on the command line: %q", svc, s.Command)
			}
		}
	}
	if _, err := loadComposeEnv(t, root, "docker-compose.yml", types.Mapping{}); err == nil ||
		!strings.Contains(err.Error(), "WYVERN_COORDINATOR_PASSWORD") {
		t.Errorf("without passwords: %v, want a refusal naming the variable", err)
	}
}
