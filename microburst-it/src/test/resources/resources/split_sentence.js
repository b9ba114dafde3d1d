// A multi-lang bolt in Storm's layout: started in the topology's resources folder, next to storm.js.
var storm = require('./storm');
var BasicBolt = storm.BasicBolt;

function SplitSentence() {
    BasicBolt.call(this);
}
SplitSentence.prototype = Object.create(BasicBolt.prototype);
SplitSentence.prototype.constructor = SplitSentence;

SplitSentence.prototype.process = function (tup, done) {
    var self = this;
    tup.values[0].split(' ').forEach(function (word) {
        self.emit({tuple: [word], anchorTupleId: tup.id}, function () {});
    });
    done();
};

new SplitSentence().run();
