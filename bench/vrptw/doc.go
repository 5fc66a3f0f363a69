// Package vrptw reads the Solomon and Gehring & Homberger VRPTW benchmark
// instances, turns them into routeplan problems under either published
// distance convention, checks and scores solutions on their own terms, and
// reads and writes CVRPLIB-style .sol files and the reference CSV tables.
//
// The two conventions differ in how an arc is measured. Hierarchical
// (SINTEF: fewest vehicles, then distance) uses Euclidean distance in double
// precision. Distance (DIMACS 2021, CVRPLIB, PyVRP) truncates each arc to one
// decimal, floor(10·d)/10, and uses that value as travel time too; the
// problems built for it are scaled by 10 so that every number is an integer
// and the time-window checks are exact.
package vrptw
