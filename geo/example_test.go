package geo_test

import (
	"context"
	"fmt"
	"time"

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

func ExampleTravelModel() {
	dc := geo.Point{Lat: 32.5921, Lng: -96.7561} // south of Dallas
	austin := geo.Point{Lat: 30.2672, Lng: -97.7431}
	nearby := geo.Point{Lat: 32.6371, Lng: -96.7561} // 5 km north

	var model geo.TravelModel // the default speed bands
	old := geo.TravelModel{SpeedKmh: 55, Circuity: 1.3}
	for _, to := range []geo.Point{nearby, austin} {
		fmt.Printf("%5.1f km: bands %5.1f km of road, %v; one speed %v\n", geo.Distance(dc, to)/1000,
			model.RoadDistance(dc, to)/1000, model.Duration(dc, to), old.Duration(dc, to))
	}
	// Output:
	//   5.0 km: bands   7.0 km of road, 12m1s; one speed 7m7s
	// 275.3 km: bands 312.9 km of road, 3h46m23s; one speed 6h30m23s
}

func ExampleRushHours() {
	chicago, err := time.LoadLocation("America/Chicago")
	if err != nil {
		fmt.Println(err)
		return
	}
	morning, _ := geo.ParseClock("06:30")
	nine, _ := geo.ParseClock("09:00")
	weekdays := []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday}
	profile := geo.RushHours{{From: morning, To: nine, Factor: 0.6, Days: weekdays}}
	if err := profile.Check(); err != nil {
		fmt.Println(err)
		return
	}

	// Monday 2 March 2026 in Chicago: resolve the profile over the day,
	// then drive a leg of one hour of free flow from several departures.
	day := time.Date(2026, time.March, 2, 0, 0, 0, 0, chicago)
	slow := profile.Intervals(chicago, day, day.AddDate(0, 0, 1))
	timeline := slow.Timeline(day) // for a solver: seconds since midnight
	for _, at := range []string{"05:00", "06:00", "07:00", "07:30", "08:30"} {
		clock, _ := geo.ParseClock(at)
		depart := day.Add(clock)
		arrive := slow.Arrive(depart, time.Hour)
		seconds := timeline.Arrive(clock.Seconds(), 3600)
		fmt.Printf("leave %s, arrive %s after %v (timeline: %v s)\n", at, arrive.In(chicago).Format("15:04"), arrive.Sub(depart), seconds-clock.Seconds())
	}
	_, err = geo.ParseClock("25:00")
	fmt.Println(err)
	fmt.Println(geo.RushHours{{From: nine, To: morning, Factor: 1.2}}.Problems())
	// Output:
	// leave 05:00, arrive 06:00 after 1h0m0s (timeline: 3600 s)
	// leave 06:00, arrive 07:20 after 1h20m0s (timeline: 4800 s)
	// leave 07:00, arrive 08:40 after 1h40m0s (timeline: 6000 s)
	// leave 07:30, arrive 09:06 after 1h36m0s (timeline: 5760 s)
	// leave 08:30, arrive 09:42 after 1h12m0s (timeline: 4320 s)
	// geo: clock "25:00": want HH:MM from 00:00 to 24:00
	// [{profile[0].to 06:30: must be after from 09:00; a period past midnight is two periods, one to 24:00 and one from 00:00 on the next days} {profile[0].factor 1.2: must be at most 1: a profile only slows travel below free flow}]
}
