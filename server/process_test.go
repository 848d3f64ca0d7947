package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// serverBinary builds the server once per test run and returns its path.
func serverBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "platform-bin-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "server")
		if out, err := exec.Command("go", "build", "-o", builtBin, ".").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

// process is the server binary running as a child process: one replica.
type process struct {
	t       *testing.T
	cmd     *exec.Cmd
	ports   []int // idp, console, tenant, metrics
	banner  chan string
	exited  chan error
	logs    *syncBuffer
	started time.Time
}

// URL is the base URL of one of the process's listeners (0 idp, 1 console,
// 2 tenant, 3 metrics).
func (p *process) URL(i int) string { return fmt.Sprintf("http://127.0.0.1:%d", p.ports[i]) }

// startProcess runs the server with the database dbURL and env on free
// loopback ports; public URLs default to its own ports unless env names them.
// It waits for the start-up banner.
func startProcess(t *testing.T, dbURL string, env ...string) *process {
	t.Helper()
	p := launchProcess(t, dbURL, env...)
	if err := p.waitStarted(); err != nil {
		t.Fatal(err)
	}
	return p
}

// launchProcess starts the server like startProcess without waiting for it.
func launchProcess(t *testing.T, dbURL string, env ...string) *process {
	t.Helper()
	return launchBinary(t, serverBinary(t), dbURL, env...)
}

// launchBinary is launchProcess with the server binary at bin (a load
// run's build of another commit).
func launchBinary(t *testing.T, bin, dbURL string, env ...string) *process {
	t.Helper()
	p := &process{t: t, ports: freePorts(t, 4), banner: make(chan string, 1), exited: make(chan error, 1), logs: &syncBuffer{}}
	p.cmd = exec.Command(bin)
	p.cmd.Dir = t.TempDir()
	p.cmd.Env = append(os.Environ(), "DATABASE_URL="+dbURL, "SECRETS_KEY="+testSecretsKey,
		fmt.Sprintf("IDP_ADDR=127.0.0.1:%d", p.ports[0]), fmt.Sprintf("ISSUER_URL=%s", p.URL(0)),
		fmt.Sprintf("CONSOLE_ADDR=127.0.0.1:%d", p.ports[1]), fmt.Sprintf("CONSOLE_URL=%s", p.URL(1)),
		fmt.Sprintf("TENANT_ADDR=127.0.0.1:%d", p.ports[2]), fmt.Sprintf("INSTANCE_URL=%s", p.URL(2)),
		fmt.Sprintf("METRICS_ADDR=127.0.0.1:%d", p.ports[3]))
	p.cmd.Env = append(p.cmd.Env, env...) // later entries win
	stdout, _ := p.cmd.StdoutPipe()
	p.cmd.Stderr = p.logs
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.started = time.Now()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.exited
	})
	go func() {
		var b strings.Builder
		sc := bufio.NewScanner(stdout)
		sent := false
		for sc.Scan() {
			b.WriteString(sc.Text() + "\n")
			if !sent && strings.HasPrefix(sc.Text(), "Platform is running") {
				sent = true
			}
			if sent && sc.Text() == "" && b.Len() > 0 {
				select {
				case p.banner <- b.String():
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	go func() { p.exited <- p.cmd.Wait() }()
	return p
}

// waitStarted waits for the start-up banner, which is printed once every
// listener is open.
func (p *process) waitStarted() error {
	select {
	case <-p.banner:
		return nil
	case err := <-p.exited:
		p.exited <- err
		return fmt.Errorf("the server exited at start: %v\n%s", err, p.logs.String())
	case <-time.After(90 * time.Second):
		return fmt.Errorf("no start-up banner within 90 s\n%s", p.logs.String())
	}
}

// wait waits for the process to exit (at most limit) and returns its exit
// error and how long after signalled it ran.
func (p *process) wait(limit time.Duration) (error, bool) {
	select {
	case err := <-p.exited:
		p.exited <- err // for the cleanup
		return err, true
	case <-time.After(limit):
		return nil, false
	}
}
