# A multi-lang bolt for the chaos soak: relays each tuple, anchored to its input, and acks it (storm.BasicBolt).
import storm


class Relay(storm.BasicBolt):
    def process(self, tup):
        storm.emit([tup.values[0], tup.values[1], tup.values[2] + 1])


Relay().run()
