package vrptw

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Customer is one data row of a Solomon file; row 0 is the depot, whose due
// date is the planning horizon.
type Customer struct {
	ID                  int
	X, Y                float64
	Demand              float64
	Ready, Due, Service float64
}

// Instance is a Solomon-format instance.
type Instance struct {
	Name      string
	Vehicles  int     // fleet size
	Capacity  float64 // per vehicle
	Customers []Customer
}

// maxCustomers bounds what Read accepts, so that a corrupt file cannot ask
// for an enormous distance matrix.
const maxCustomers = 20000

// Read parses a Solomon-format instance: a name line, a VEHICLE section with
// the fleet size and capacity, and a CUSTOMER section of seven-number rows
// whose ids must run 0, 1, 2, ... CRLF line endings are accepted.
func Read(r io.Reader) (*Instance, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	in := &Instance{}
	section := ""
	line := 0
	haveFleet := false
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		fields := strings.Fields(text)
		upper := strings.ToUpper(fields[0])
		switch {
		case in.Name == "" && section == "":
			if upper == "VEHICLE" || upper == "CUSTOMER" {
				return nil, fmt.Errorf("vrptw: line %d: missing instance name", line)
			}
			in.Name = text
			continue
		case upper == "VEHICLE":
			section = "vehicle"
			continue
		case upper == "CUSTOMER":
			if !haveFleet {
				return nil, fmt.Errorf("vrptw: line %d: CUSTOMER section before the vehicle fleet", line)
			}
			section = "customer"
			continue
		case upper == "NUMBER" || upper == "CUST":
			continue // column headers
		}
		nums, err := parseNumbers(fields)
		if err != nil {
			return nil, fmt.Errorf("vrptw: line %d: %v", line, err)
		}
		switch section {
		case "vehicle":
			if haveFleet || len(nums) != 2 {
				return nil, fmt.Errorf("vrptw: line %d: want one line \"NUMBER CAPACITY\"", line)
			}
			if nums[0] < 0 || nums[0] != math.Trunc(nums[0]) || nums[0] > maxCustomers || nums[1] < 0 {
				return nil, fmt.Errorf("vrptw: line %d: bad fleet %v", line, nums)
			}
			in.Vehicles, in.Capacity = int(nums[0]), nums[1]
			haveFleet = true
		case "customer":
			if len(nums) != 7 {
				return nil, fmt.Errorf("vrptw: line %d: want 7 numbers, got %d", line, len(nums))
			}
			if len(in.Customers) >= maxCustomers {
				return nil, fmt.Errorf("vrptw: line %d: more than %d customers", line, maxCustomers)
			}
			c := Customer{ID: int(nums[0]), X: nums[1], Y: nums[2], Demand: nums[3], Ready: nums[4], Due: nums[5], Service: nums[6]}
			if nums[0] != float64(len(in.Customers)) {
				return nil, fmt.Errorf("vrptw: line %d: customer id %g, want %d", line, nums[0], len(in.Customers))
			}
			if c.Demand < 0 || c.Service < 0 || c.Due < c.Ready {
				return nil, fmt.Errorf("vrptw: line %d: negative demand or service, or due date before ready time", line)
			}
			in.Customers = append(in.Customers, c)
		default:
			return nil, fmt.Errorf("vrptw: line %d: numbers outside a VEHICLE or CUSTOMER section", line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("vrptw: %v", err)
	}
	if !haveFleet {
		return nil, fmt.Errorf("vrptw: no VEHICLE section")
	}
	if len(in.Customers) == 0 {
		return nil, fmt.Errorf("vrptw: no depot row")
	}
	return in, nil
}

func parseNumbers(fields []string) ([]float64, error) {
	nums := make([]float64, len(fields))
	for i, f := range fields {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e9 {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		nums[i] = v
	}
	return nums, nil
}
