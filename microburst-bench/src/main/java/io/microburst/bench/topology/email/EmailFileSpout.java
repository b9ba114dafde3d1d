package io.microburst.bench.topology.email;

import java.nio.file.Path;
import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/** Reads one serialized email per call from the compressed data set and emits its bytes. Task thread only. */
public final class EmailFileSpout extends BaseRichSpout {
    private static final long serialVersionUID = 1L;
    private final String dataSet;
    private transient SpoutOutputCollector collector;
    private transient EmailFileReader reader;

    /** @param dataSet path of the file {@link EmailDataSet#ensure} made */
    public EmailFileSpout(String dataSet) {
        this.dataSet = dataSet;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.reader = new EmailFileReader(Path.of(dataSet));
    }

    @Override
    public void nextTuple() {
        collector.emit(new Values((Object) reader.next()));
    }

    @Override
    public void close() {
        if (reader != null) {
            reader.close();
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("record"));
    }
}
