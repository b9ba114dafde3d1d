# A multi-lang bolt in Storm's layout: started in the topology's resources folder, next to storm.py.
import storm


class SplitSentence(storm.BasicBolt):
    def process(self, tup):
        for word in tup.values[0].split(" "):
            storm.emit([word])


SplitSentence().run()
