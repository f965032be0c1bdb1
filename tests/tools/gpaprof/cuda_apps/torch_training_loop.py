"""A PyTorch training loop for gpaprof's repeated-run test (tools/device/gpu_gpaprof_repeat.sh): torchvision's
ResNet-18 (random weights, random data), a few SGD steps, then it prints the loss and returns from the script
without synchronising or freeing anything, as training scripts do.

    python3 torch_training_loop.py [--model resnet18|convnet] [--steps N] [--batch B]
    prints: torch_training_loop model=M steps=N batch=B loss=L
"""
import argparse

import torch


def convnet():
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 32, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(32, 64, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1),
        torch.nn.Flatten(), torch.nn.Linear(64, 1000))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="resnet18", choices=["resnet18", "convnet"])
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--batch", type=int, default=32)
    args = parser.parse_args()
    torch.manual_seed(0)
    if args.model == "resnet18":
        import torchvision
        model = torchvision.models.resnet18(weights=None)
    else:
        model = convnet()
    model = model.cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = torch.nn.CrossEntropyLoss()
    images = torch.randn(args.batch, 3, 224, 224, device="cuda")
    labels = torch.randint(0, 1000, (args.batch,), device="cuda")
    loss = None
    for _ in range(args.steps):
        optimizer.zero_grad()
        loss = loss_fn(model(images), labels)
        loss.backward()
        optimizer.step()
    print(f"torch_training_loop model={args.model} steps={args.steps} batch={args.batch} loss={loss.item():.4f}",
          flush=True)


if __name__ == "__main__":
    main()
