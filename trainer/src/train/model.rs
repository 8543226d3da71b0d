//! The net in burn: parameters as burn tensors, the two formulations of the training step
//! (sparse hybrid and pure burn), AdamW through burn's optimizer, and conversion to the `nnue`
//! crate's float network for export.
//!
//! Architecture v1 of the `nnue` crate: `(F -> H) x 2 -> B`, SCReLU, the feature transformer
//! shared by both perspectives, the side to move's half first; each position is scored by the
//! output bucket of its piece count (`nnue::network::output_bucket`).

use anyhow::{anyhow, bail, Context, Result};
use burn::{
    optim::{AdamW, AdamWConfig, AdamWState, AdaptiveMomentumState, Optimizer},
    tensor::{activation::sigmoid, module::embedding, Device, Int, Tensor, TensorData},
};
use nnue::{network::output_bucket, FloatNetwork};

use super::{dataset::Batch, sparse};

/// How the first layer is computed in training.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum FtMode {
    /// Hand-written sparse forward/backward (rayon), the rest of the net in burn. The CPU default.
    Sparse,
    /// Everything in burn: dense multi-hot inputs times the weight matrix. The reference the
    /// sparse op is tested against; on a GPU it moves `2 x n x F` floats per step.
    Dense,
    /// Everything in burn: the first layer as a gather of the active features' rows (burn's
    /// embedding op, padded to the longest list and masked), summed. For GPUs: only the
    /// feature indices travel, and the backward pass is a scatter-add on the device.
    Gather,
}

/// Reads a tensor back into a `Vec<f32>`.
pub fn to_vec<const D: usize>(t: Tensor<D>) -> Result<Vec<f32>> {
    t.into_data()
        .try_to_vec::<f32>()
        .map_err(|e| anyhow!("reading a tensor back: {e:?}"))
}

fn tensor2(values: Vec<f32>, rows: usize, cols: usize, device: &Device) -> Tensor<2> {
    Tensor::from_data(TensorData::new(values, [rows, cols]), device)
}

fn tensor1(values: Vec<f32>, device: &Device) -> Tensor<1> {
    let n = values.len();
    Tensor::from_data(TensorData::new(values, [n]), device)
}

/// The parameters, as plain (non-autodiff) tensors on the training device.
#[derive(Clone, Debug)]
pub struct Params {
    /// Number of inputs `F`.
    pub num_features: usize,
    /// Hidden neurons `H`.
    pub hidden: usize,
    /// Output buckets `B`.
    pub buckets: usize,
    /// `F x H`, row = feature.
    pub ft_w: Tensor<2>,
    /// `H`.
    pub ft_b: Tensor<1>,
    /// `B x 2H`, row = bucket.
    pub out_w: Tensor<2>,
    /// `B`.
    pub out_b: Tensor<1>,
    /// The king buckets of feature set v2 (`F` is `K` times the v1 inputs), `None` for v1.
    pub kings: Option<nnue::features::KingBuckets>,
}

/// Gradients of the four parameters.
pub struct Grads {
    /// Of `ft_w`.
    pub ft_w: Tensor<2>,
    /// Of `ft_b`.
    pub ft_b: Tensor<1>,
    /// Of `out_w`.
    pub out_w: Tensor<2>,
    /// Of `out_b`.
    pub out_b: Tensor<1>,
}

impl Params {
    /// The parameters of a float network, on `device`.
    pub fn from_float(net: &FloatNetwork, device: &Device) -> Params {
        Params {
            num_features: net.num_features,
            hidden: net.hidden,
            buckets: net.buckets(),
            ft_w: tensor2(net.ft_weights.clone(), net.num_features, net.hidden, device),
            ft_b: tensor1(net.ft_bias.clone(), device),
            out_w: tensor2(net.out_weights.clone(), net.buckets(), 2 * net.hidden, device),
            out_b: tensor1(net.out_bias.clone(), device),
            kings: net.kings.clone(),
        }
    }

    /// A deterministic random start: feature weights uniform in `[-0.1, 0.1)`, feature biases
    /// in `[0, 0.5)` (most SCReLU inputs land inside `[0, 1]`), output weights uniform in
    /// `+-1/sqrt(2H)`, output bias 0.
    #[cfg(test)]
    pub fn init(num_features: usize, hidden: usize, seed: u64, device: &Device) -> Params {
        Params::init_scaled(num_features, hidden, 1, seed, 0.1, device).expect("one bucket is always valid")
    }

    /// Like `Params::init` with `buckets` output buckets (all alike at the start) and feature
    /// weights uniform in `[-range, range)` (training uses 0.01 by default: a feature the data
    /// never activates then adds next to nothing, where 0.1 left random values that the net met
    /// in play and misjudged).
    pub fn init_scaled(
        num_features: usize,
        hidden: usize,
        buckets: usize,
        seed: u64,
        range: f32,
        device: &Device,
    ) -> Result<Params> {
        let mut net = FloatNetwork::init_random(num_features, hidden, seed);
        for w in &mut net.ft_weights {
            *w *= range / 0.1;
        }
        let k = 2.0 / (2.0 * hidden as f32).sqrt();
        for w in &mut net.out_weights {
            *w *= k;
        }
        net.out_bias = vec![0.0];
        let net = net.with_buckets(buckets).ok_or_else(|| {
            anyhow!(
                "{buckets} output buckets: must be 1..={}",
                nnue::network::MAX_OUTPUT_BUCKETS
            )
        })?;
        Ok(Params::from_float(&net, device))
    }

    /// The parameters as the `nnue` crate's float network (for export and checks).
    pub fn to_float(&self) -> Result<FloatNetwork> {
        let out_bias = to_vec(self.out_b.clone())?;
        if out_bias.len() != self.buckets {
            bail!("{} output biases for {} buckets", out_bias.len(), self.buckets);
        }
        Ok(FloatNetwork {
            num_features: self.num_features,
            hidden: self.hidden,
            ft_weights: to_vec(self.ft_w.clone())?,
            ft_bias: to_vec(self.ft_b.clone())?,
            out_weights: to_vec(self.out_w.clone())?,
            out_bias,
            kings: self.kings.clone(),
        })
    }

    /// The output bucket of each position of `batch`.
    fn batch_buckets(&self, batch: &Batch) -> Vec<usize> {
        (0..batch.len())
            .map(|i| output_bucket(batch.stm_features(i).len(), self.buckets))
            .collect()
    }

    /// The raw outputs `y` (before sigmoid; `y * 400` = centipawns) of a batch, no gradients.
    pub fn predict(&self, batch: &Batch) -> Result<Vec<f32>> {
        if batch.is_empty() {
            return Ok(Vec::new());
        }
        let device = self.out_w.device();
        let w = to_vec(self.ft_w.clone())?;
        let b = to_vec(self.ft_b.clone())?;
        let ft = sparse::forward(&w, &b, self.hidden, batch);
        let h = tensor2(ft.act, batch.len(), 2 * self.hidden, &device);
        let y = h.matmul(self.out_w.clone().transpose()) + self.out_b.clone().unsqueeze::<2>();
        let all = to_vec(y)?;
        Ok(self
            .batch_buckets(batch)
            .iter()
            .enumerate()
            .map(|(i, &bucket)| all[i * self.buckets + bucket])
            .collect())
    }

    /// Mean loss of a batch, no gradients.
    pub fn loss(&self, batch: &Batch) -> Result<f64> {
        let y = self.predict(batch)?;
        let sum: f64 = y
            .iter()
            .zip(&batch.targets)
            .map(|(&y, &t)| {
                let p = 1.0 / (1.0 + (-f64::from(y)).exp());
                (p - f64::from(t)).powi(2)
            })
            .sum();
        Ok(sum / batch.len().max(1) as f64)
    }

    /// Loss and gradients of a batch: `mean((sigmoid(y) - target)^2)`.
    pub fn gradients(&self, batch: &Batch, mode: FtMode) -> Result<(f64, Grads)> {
        match mode {
            FtMode::Sparse => self.gradients_sparse(batch),
            FtMode::Dense => self.gradients_dense(batch),
            FtMode::Gather => self.gradients_gather(batch),
        }
    }

    /// The head and the loss in burn: `h` (`n x 2H`) -> `mean((sigmoid(y) - t)^2)`, where `y` is
    /// the column of each position's bucket in `h W^T + b` (`n x B`); returns the loss's value
    /// and the loss tensor (to call `backward` on).
    fn head_loss(
        h: Tensor<2>,
        out_w: Tensor<2>,
        out_b: Tensor<1>,
        buckets: &[usize],
        targets: &[f32],
    ) -> Result<(f64, Tensor<1>)> {
        let device = h.device();
        let n = targets.len();
        let width = out_b.dims()[0];
        let all = h.matmul(out_w.transpose()) + out_b.unsqueeze::<2>();
        let y = if width == 1 {
            all
        } else {
            // A one-hot mask of each row's bucket picks its column (the gradient flows to that
            // bucket's weights only).
            let mut mask = vec![0.0f32; n * width];
            for (i, &bucket) in buckets.iter().enumerate() {
                mask[i * width + bucket] = 1.0;
            }
            (all * tensor2(mask, n, width, &device).autodiff()).sum_dim(1)
        };
        let t = tensor2(targets.to_vec(), n, 1, &device);
        let loss = (sigmoid(y) - t).square().mean();
        let value = to_vec(loss.clone().inner())?;
        Ok((f64::from(*value.first().context("empty loss")?), loss))
    }

    fn gradients_sparse(&self, batch: &Batch) -> Result<(f64, Grads)> {
        let device = self.ft_w.device();
        let n = batch.len();
        let w = to_vec(self.ft_w.clone())?;
        let b = to_vec(self.ft_b.clone())?;
        let ft = sparse::forward(&w, &b, self.hidden, batch);
        let h = tensor2(ft.act, n, 2 * self.hidden, &device).autodiff().require_grad();
        let out_w = self.out_w.clone().autodiff().require_grad();
        let out_b = self.out_b.clone().autodiff().require_grad();
        let buckets = self.batch_buckets(batch);
        let (loss_value, loss) = Self::head_loss(h.clone(), out_w.clone(), out_b.clone(), &buckets, &batch.targets)?;
        let grads = loss.backward();
        let missing = || anyhow!("burn returned no gradient");
        let g_h = to_vec(h.grad(&grads).ok_or_else(missing)?)?;
        let g_out_w = out_w.grad(&grads).ok_or_else(missing)?;
        let g_out_b = out_b.grad(&grads).ok_or_else(missing)?;
        let (g_w, g_b) = sparse::backward(&ft.acc, &g_h, self.num_features, self.hidden, batch);
        Ok((
            loss_value,
            Grads {
                ft_w: tensor2(g_w, self.num_features, self.hidden, &device),
                ft_b: tensor1(g_b, &device),
                out_w: g_out_w,
                out_b: g_out_b,
            },
        ))
    }

    fn gradients_dense(&self, batch: &Batch) -> Result<(f64, Grads)> {
        let device = self.ft_w.device();
        let (n, f) = (batch.len(), self.num_features);
        self.gradients_in_burn(batch, |ft_w, stm| {
            let x = tensor2(batch.dense(f, stm), n, f, &device).autodiff();
            x.matmul(ft_w.clone())
        })
    }

    fn gradients_gather(&self, batch: &Batch) -> Result<(f64, Grads)> {
        let device = self.ft_w.device();
        let (n, hidden) = (batch.len(), self.hidden);
        self.gradients_in_burn(batch, |ft_w, stm| {
            let (indices, mask, k) = batch.padded(stm);
            let indices = Tensor::<2, Int>::from_data(TensorData::new(indices, [n, k]), &device).autodiff();
            let mask = Tensor::<3>::from_data(TensorData::new(mask, [n, k, 1]), &device).autodiff();
            let rows = embedding(ft_w.clone(), indices) * mask;
            rows.sum_dim(1).reshape([n, hidden])
        })
    }

    /// Loss and gradients with the whole net in burn's autodiff; `first_layer(ft_w, stm)` gives
    /// one perspective's accumulators before the bias (`n x H`).
    fn gradients_in_burn(
        &self,
        batch: &Batch,
        first_layer: impl Fn(&Tensor<2>, bool) -> Tensor<2>,
    ) -> Result<(f64, Grads)> {
        let ft_w = self.ft_w.clone().autodiff().require_grad();
        let ft_b = self.ft_b.clone().autodiff().require_grad();
        let out_w = self.out_w.clone().autodiff().require_grad();
        let out_b = self.out_b.clone().autodiff().require_grad();
        let half = |stm: bool| {
            let acc = first_layer(&ft_w, stm) + ft_b.clone().unsqueeze::<2>();
            acc.clamp(0.0, 1.0).square()
        };
        let h = Tensor::cat(vec![half(true), half(false)], 1);
        let buckets = self.batch_buckets(batch);
        let (loss_value, loss) = Self::head_loss(h, out_w.clone(), out_b.clone(), &buckets, &batch.targets)?;
        let grads = loss.backward();
        let missing = || anyhow!("burn returned no gradient");
        Ok((
            loss_value,
            Grads {
                ft_w: ft_w.grad(&grads).ok_or_else(missing)?,
                ft_b: ft_b.grad(&grads).ok_or_else(missing)?,
                out_w: out_w.grad(&grads).ok_or_else(missing)?,
                out_b: out_b.grad(&grads).ok_or_else(missing)?,
            },
        ))
    }
}

/// One parameter's AdamW moments, as plain numbers (for checkpoints).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MomentState {
    /// Steps taken.
    pub time: usize,
    /// First moments.
    pub m1: Vec<f32>,
    /// Second moments.
    pub m2: Vec<f32>,
}

/// AdamW (burn's) over the four parameters, with weights clipped after each step so that the
/// net quantises (`|w| <= clip`).
pub struct Trainer {
    optim: AdamW,
    clip: f32,
    ft_w: Option<AdamWState<2>>,
    ft_b: Option<AdamWState<1>>,
    out_w: Option<AdamWState<2>>,
    out_b: Option<AdamWState<1>>,
}

fn state_out<const D: usize>(s: &Option<AdamWState<D>>) -> Result<Option<MomentState>> {
    match s {
        None => Ok(None),
        Some(s) => Ok(Some(MomentState {
            time: s.momentum.time,
            m1: to_vec(s.momentum.moment_1.clone())?,
            m2: to_vec(s.momentum.moment_2.clone())?,
        })),
    }
}

fn state_in<const D: usize>(s: Option<MomentState>, like: &Tensor<D>) -> Option<AdamWState<D>> {
    s.map(|s| {
        let device = like.device();
        let shape = like.shape();
        let make = |v: Vec<f32>| Tensor::<D>::from_data(TensorData::new(v, shape.clone()), &device);
        AdamWState::new(AdaptiveMomentumState::new(s.time, make(s.m1), make(s.m2)))
    })
}

impl Trainer {
    /// AdamW with the given decoupled weight decay (betas 0.9 / 0.999, epsilon 1e-8).
    pub fn new(weight_decay: f32, clip: f32) -> Trainer {
        Trainer {
            optim: AdamWConfig::new()
                .with_weight_decay(weight_decay)
                .with_epsilon(1e-8)
                .build(),
            clip,
            ft_w: None,
            ft_b: None,
            out_w: None,
            out_b: None,
        }
    }

    /// One AdamW step at learning rate `lr`.
    pub fn step(&mut self, params: Params, grads: Grads, lr: f64) -> Params {
        let clip = self.clip;
        let (ft_w, s) = self.optim.step(lr, params.ft_w, grads.ft_w, self.ft_w.take());
        self.ft_w = s;
        let (ft_b, s) = self.optim.step(lr, params.ft_b, grads.ft_b, self.ft_b.take());
        self.ft_b = s;
        let (out_w, s) = self.optim.step(lr, params.out_w, grads.out_w, self.out_w.take());
        self.out_w = s;
        let (out_b, s) = self.optim.step(lr, params.out_b, grads.out_b, self.out_b.take());
        self.out_b = s;
        Params {
            num_features: params.num_features,
            hidden: params.hidden,
            buckets: params.buckets,
            ft_w: ft_w.clamp(-clip, clip),
            ft_b: ft_b.clamp(-clip, clip),
            out_w: out_w.clamp(-clip, clip),
            out_b,
            kings: params.kings,
        }
    }

    /// The moments of the four parameters (`ft_w`, `ft_b`, `out_w`, `out_b`).
    pub fn export_state(&self) -> Result<[Option<MomentState>; 4]> {
        Ok([
            state_out(&self.ft_w)?,
            state_out(&self.ft_b)?,
            state_out(&self.out_w)?,
            state_out(&self.out_b)?,
        ])
    }

    /// Restores the moments saved by [`Trainer::export_state`].
    pub fn import_state(&mut self, state: [Option<MomentState>; 4], params: &Params) {
        let [a, b, c, d] = state;
        self.ft_w = state_in(a, &params.ft_w);
        self.ft_b = state_in(b, &params.ft_b);
        self.out_w = state_in(c, &params.out_w);
        self.out_b = state_in(d, &params.out_b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch() -> Batch {
        let mut b = Batch::default();
        let rows: [(&[u16], &[u16], f32); 5] = [
            (&[0, 5, 9], &[1, 4], 0.9),
            (&[2, 3], &[7, 8, 11], 0.1),
            (&[11], &[0], 0.5),
            (&[1, 6, 10, 3], &[2, 9], 0.7),
            (&[4, 4], &[5], 0.3),
        ];
        for (s, n, t) in rows {
            b.push(s, n, t);
        }
        b
    }

    fn close(a: &[f32], b: &[f32], what: &str) {
        assert_eq!(a.len(), b.len(), "{what}");
        for (i, (x, y)) in a.iter().zip(b).enumerate() {
            assert!(
                (x - y).abs() <= 1e-5 + 1e-3 * y.abs(),
                "{what}[{i}]: sparse {x} vs dense {y}"
            );
        }
    }

    #[test]
    fn sparse_and_pure_burn_gradients_agree() {
        let device = Device::flex();
        let params = Params::init(12, 6, 5, &device);
        let (l1, g1) = params.gradients(&batch(), FtMode::Sparse).unwrap();
        let (l2, g2) = params.gradients(&batch(), FtMode::Dense).unwrap();
        assert!((l1 - l2).abs() < 1e-6, "{l1} vs {l2}");
        let (w1, w2) = (to_vec(g1.ft_w).unwrap(), to_vec(g2.ft_w).unwrap());
        close(&w1, &w2, "ft_w");
        assert!(
            w1.iter().filter(|&&g| g != 0.0).count() > 10,
            "the test batch must exercise the weights"
        );
        close(&to_vec(g1.ft_b).unwrap(), &to_vec(g2.ft_b).unwrap(), "ft_b");
        close(&to_vec(g1.out_w).unwrap(), &to_vec(g2.out_w).unwrap(), "out_w");
        close(&to_vec(g1.out_b).unwrap(), &to_vec(g2.out_b).unwrap(), "out_b");
    }

    #[test]
    fn sparse_and_gather_gradients_agree() {
        let device = Device::flex();
        let params = Params::init(12, 6, 7, &device);
        let (l1, g1) = params.gradients(&batch(), FtMode::Sparse).unwrap();
        let (l2, g2) = params.gradients(&batch(), FtMode::Gather).unwrap();
        assert!((l1 - l2).abs() < 1e-6, "{l1} vs {l2}");
        let (w1, w2) = (to_vec(g1.ft_w).unwrap(), to_vec(g2.ft_w).unwrap());
        close(&w1, &w2, "ft_w");
        assert!(w1.iter().filter(|&&g| g != 0.0).count() > 10);
        close(&to_vec(g1.ft_b).unwrap(), &to_vec(g2.ft_b).unwrap(), "ft_b");
        close(&to_vec(g1.out_w).unwrap(), &to_vec(g2.out_w).unwrap(), "out_w");
        close(&to_vec(g1.out_b).unwrap(), &to_vec(g2.out_b).unwrap(), "out_b");
    }

    /// 200 AdamW steps on one batch: the loss before, the loss after and the trained params.
    fn train_on(mut params: Params, b: &Batch) -> (f64, f64, Params) {
        let mut trainer = Trainer::new(0.0, 1.98);
        let first = params.loss(b).unwrap();
        for _ in 0..200 {
            let (_, g) = params.gradients(b, FtMode::Sparse).unwrap();
            params = trainer.step(params, g, 0.01);
        }
        (first, params.loss(b).unwrap(), params)
    }

    #[test]
    fn the_loss_falls_when_training_on_a_fixed_batch() {
        let (first, last, _) = train_on(Params::init(12, 8, 9, &Device::flex()), &batch());
        assert!(last < first * 0.2, "{first} -> {last}");
    }

    #[test]
    fn weights_stay_inside_the_clip() {
        let device = Device::flex();
        let mut params = Params::init(12, 4, 1, &device);
        let mut trainer = Trainer::new(0.0, 0.05);
        for _ in 0..5 {
            let (_, g) = params.gradients(&batch(), FtMode::Sparse).unwrap();
            params = trainer.step(params, g, 0.5);
        }
        let net = params.to_float().unwrap();
        assert!(net
            .ft_weights
            .iter()
            .chain(&net.out_weights)
            .all(|w| w.abs() <= 0.05 + 1e-7));
    }

    /// Positions with 2 to 36 features of 40: every one of eight buckets gets some.
    fn material_batch() -> Batch {
        let mut b = Batch::default();
        for (k, pieces) in [2usize, 7, 11, 15, 20, 24, 28, 33, 36, 9, 30, 5]
            .into_iter()
            .enumerate()
        {
            let stm: Vec<u16> = (0..pieces).map(|j| ((j * 7 + k) % 40) as u16).collect();
            let ntm: Vec<u16> = (0..pieces).map(|j| ((j * 3 + 2 * k) % 40) as u16).collect();
            b.push(&stm, &ntm, (k as f32 * 0.37).fract());
        }
        b
    }

    fn bucketed_params(seed: u64) -> Params {
        let mut net = Params::init(40, 6, seed, &Device::flex()).to_float().unwrap();
        net.ft_weights.iter_mut().for_each(|w| *w *= 0.3);
        let mut net = net.with_buckets(8).unwrap();
        for (i, w) in net.out_weights.iter_mut().enumerate() {
            *w *= 1.0 - 0.1 * (i / 12) as f32;
        }
        for (b, bias) in net.out_bias.iter_mut().enumerate() {
            *bias = 0.1 * b as f32 - 0.3;
        }
        Params::from_float(&net, &Device::flex())
    }

    #[test]
    fn bucketed_predictions_and_gradients_agree_with_the_references() {
        let params = bucketed_params(4);
        let net = params.to_float().unwrap();
        assert_eq!(net.buckets(), 8);
        let b = material_batch();
        let buckets: std::collections::BTreeSet<usize> = params.batch_buckets(&b).into_iter().collect();
        assert_eq!(buckets.len(), 8, "the test batch must reach every bucket");
        for (i, &y) in params.predict(&b).unwrap().iter().enumerate() {
            let us: Vec<usize> = b.stm_features(i).iter().map(|&f| f as usize).collect();
            let them: Vec<usize> = b.ntm_features(i).iter().map(|&f| f as usize).collect();
            assert!((y - net.forward(&us, &them)).abs() < 1e-4, "position {i}");
        }
        let (l1, g1) = params.gradients(&b, FtMode::Sparse).unwrap();
        for mode in [FtMode::Dense, FtMode::Gather] {
            let (l2, g2) = params.gradients(&b, mode).unwrap();
            assert!((l1 - l2).abs() < 1e-6, "{l1} vs {l2}");
            close(&to_vec(g1.ft_w.clone()).unwrap(), &to_vec(g2.ft_w).unwrap(), "ft_w");
            close(&to_vec(g1.out_w.clone()).unwrap(), &to_vec(g2.out_w).unwrap(), "out_w");
            close(&to_vec(g1.out_b.clone()).unwrap(), &to_vec(g2.out_b).unwrap(), "out_b");
        }
        // A bucket's bias gradient is the sum over its own positions only: each bucket has one
        // or two positions here, so no bias gradient is zero, and the loss is the mean.
        let g_b = to_vec(g1.out_b).unwrap();
        assert_eq!(g_b.len(), 8);
        assert!(g_b.iter().all(|g| *g != 0.0), "{g_b:?}");
    }

    #[test]
    fn the_loss_falls_with_buckets_too() {
        let (first, last, params) = train_on(bucketed_params(5), &material_batch());
        assert!(last < first * 0.2, "{first} -> {last}");
        assert_eq!(params.to_float().unwrap().buckets(), 8);
    }

    #[test]
    fn predictions_equal_the_reference_forward_pass() {
        let device = Device::flex();
        let params = Params::init(12, 6, 3, &device);
        let net = params.to_float().unwrap();
        let b = batch();
        let y = params.predict(&b).unwrap();
        for (i, &y) in y.iter().enumerate() {
            let us: Vec<usize> = b.stm_features(i).iter().map(|&f| f as usize).collect();
            let them: Vec<usize> = b.ntm_features(i).iter().map(|&f| f as usize).collect();
            assert!((y - net.forward(&us, &them)).abs() < 1e-5);
        }
    }
}
