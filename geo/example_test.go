package geo_test

import (
	"context"
	"fmt"

	"github.com/haulplan/haulplan/geo"
)

func ExampleDistance() {
	chicago := geo.Point{Lat: 41.8781, Lng: -87.6298}
	milwaukee := geo.Point{Lat: 43.0389, Lng: -87.9065}
	fmt.Printf("%.1f km, bearing %.0f°\n", geo.Distance(chicago, milwaukee)/1000, geo.Bearing(chicago, milwaukee))
	// Output: 131.2 km, bearing 350°
}

func ExampleTravelModel_Matrix() {
	points := []geo.Point{
		{Lat: 41.8781, Lng: -87.6298}, // distribution centre, Chicago
		{Lat: 43.0389, Lng: -87.9065}, // Milwaukee
		{Lat: 41.5868, Lng: -93.6250}, // Des Moines
	}
	model := geo.TravelModel{SpeedKmh: 60} // circuity 0 means DefaultCircuity
	m, err := model.Matrix(context.Background(), points)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range m.Len() {
		fmt.Printf("from %d:", i)
		for j := range m.Len() {
			fmt.Printf("  %6.1f km %v", m.Distance(i, j)/1000, m.Duration(i, j))
		}
		fmt.Println()
	}
	_, err = model.Matrix(context.Background(), []geo.Point{{}, {Lat: 95}})
	fmt.Println(err)
	// Output:
	// from 0:     0.0 km 0s   170.6 km 2h50m34s   648.7 km 10h48m42s
	// from 1:   170.6 km 2h50m34s     0.0 km 0s   646.9 km 10h46m53s
	// from 2:   648.7 km 10h48m42s   646.9 km 10h46m53s     0.0 km 0s
	// geo: point 1: lat 95 outside [-90, 90]
}
