// Times java.util.regex on the exported Java patterns, for bench_engines.py.
// Run as a single-file program: java Adversarial.java FILE
// FILE: one "label<TAB>pattern<TAB>any pattern<TAB>input" a line.
// Prints "label<TAB>milliseconds" a line: the best of 3 of both matches, or
// "label<TAB>StackOverflowError".
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

public class Adversarial {
    public static void main(String[] args) throws Exception {
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.split("\t", 4);
            Pattern scheme = Pattern.compile(f[1]);
            Pattern any = Pattern.compile(f[2]);
            double best = Double.MAX_VALUE;
            try {
                for (int run = 0; run < 3; run++) {
                    long start = System.nanoTime();
                    scheme.matcher(f[3]).find();
                    any.matcher(f[3]).find();
                    best = Math.min(best, (System.nanoTime() - start) / 1e6);
                }
                System.out.println(f[0] + "\t" + best);
            } catch (StackOverflowError e) {
                System.out.println(f[0] + "\tStackOverflowError");
            }
        }
    }
}
