package jobs

import (
	"crypto/rand"
	"fmt"
	"os"
)

// NewOwner returns a name for this process start to hold job leases under:
// the host name and process id, which an operator reads in a job row to
// find the process, and a random part, so that a restarted process (which
// may get the same id, in a container say) never passes for its
// predecessor.
func NewOwner() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), rand.Text()[:10])
}
